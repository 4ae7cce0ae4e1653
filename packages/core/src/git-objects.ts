import type { ChildProcessWithoutNullStreams } from "node:child_process";

/** What `git cat-file --batch-check` says about an object. */
export interface GitObjectInfo {
  readonly oid: string;
  readonly type: string;
  readonly size: number;
}

/** An object's content, cut at the `maxBytes` asked for (`size` is still the whole size). */
export interface GitObjectContent extends GitObjectInfo {
  readonly data: Buffer;
}

/** Reads a repository's objects. Every method may be called many times at once: requests are pipelined. */
export interface GitObjectReader {
  /** Type and size, or null when the repository has no such object. */
  info(name: string): Promise<GitObjectInfo | null>;
  /** Type, size and at most `maxBytes` of the content (default: all of it), or null when there is no such object. */
  contents(name: string, maxBytes?: number): Promise<GitObjectContent | null>;
  /** Ends both git processes; requests still pending are rejected. */
  close(): void;
}

export interface GitObjectsOptions {
  /** The git executable (default: `git` on the PATH). */
  readonly git?: string;
  /** The environment git runs with (default: this process's, without the variables that would point git elsewhere). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Variables that redirect git away from the directory it is given (`GIT_DIR` is set
 * inside git hooks, for instance), or change what a pathspec means: removed, so that
 * `-C DIR` means DIR and a `:(glob)` pathspec means what it says.
 */
const REDIRECTING = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_CEILING_DIRECTORIES",
  "GIT_LITERAL_PATHSPECS",
  "GIT_GLOB_PATHSPECS",
  "GIT_NOGLOB_PATHSPECS",
  "GIT_ICASE_PATHSPECS",
];

/**
 * The environment every git process of returnlint gets: never a prompt, never a
 * fetch of missing objects from a promisor remote (a partial clone), no pager.
 */
export function gitEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept = Object.entries(base).filter(([name]) => !REDIRECTING.includes(name));
  return { ...Object.fromEntries(kept), GIT_TERMINAL_PROMPT: "0", GIT_NO_LAZY_FETCH: "1", GIT_PAGER: "cat", GIT_OPTIONAL_LOCKS: "0" };
}

/**
 * One long-lived `git cat-file --batch` and one `git cat-file --batch-check` for the
 * repository whose git directory is `gitDir`: every object is read through them,
 * never one process per object. Requests are written as they come and answered in
 * order, so many may be in flight at once.
 */
export function openGitObjects(gitDir: string, options: GitObjectsOptions = {}): GitObjectReader {
  const env = options.env ?? gitEnvironment();
  const git = options.git ?? "git";
  const batch = new BatchProcess(git, gitDir, "--batch", env);
  const check = new BatchProcess(git, gitDir, "--batch-check", env);
  return {
    async info(name) {
      const answer = await check.request(name, 0);
      return answer === null ? null : { oid: answer.oid, type: answer.type, size: answer.size };
    },
    contents(name, maxBytes = Number.POSITIVE_INFINITY) {
      return batch.request(name, maxBytes);
    },
    close() {
      batch.close();
      check.close();
    },
  };
}

interface Pending {
  readonly name: string;
  readonly maxBytes: number;
  resolve(value: GitObjectContent | null): void;
  reject(error: Error): void;
}

/** An object's content as it arrives: at most `maxBytes` of it is kept. */
interface Body {
  readonly pending: Pending;
  readonly info: GitObjectInfo;
  readonly chunks: Buffer[];
  kept: number;
  /** Bytes still to come, the closing newline included. */
  remaining: number;
}

const EMPTY = Buffer.alloc(0);
const NEWLINE = 0x0a;

class BatchProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly queue: Pending[] = [];
  private head = 0;
  private buffered: Buffer = EMPTY;
  private body: Body | undefined;
  private failure: Error | undefined;
  private stderr = "";
  /** The names asked for since the last write to git. */
  private unsent: string[] = [];

  constructor(
    git: string,
    gitDir: string,
    private readonly mode: "--batch" | "--batch-check",
    env: NodeJS.ProcessEnv,
  ) {
    // Loaded here, not imported: core is on every check's start-up path, and node:child_process is not cheap to load.
    const { spawn } = process.getBuiltinModule("node:child_process");
    this.child = spawn(git, ["--git-dir", gitDir, "cat-file", mode], { env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.receive(chunk);
    });
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-2000);
    });
    // A closed pipe shows as an error on stdin when git has gone: the exit below says why.
    this.child.stdin.on("error", () => undefined);
    this.child.on("error", (error: NodeJS.ErrnoException) => {
      this.fail(new Error(error.code === "ENOENT" ? `git was not found (${git})` : `git cat-file ${mode} could not start: ${error.message}`));
    });
    this.child.on("close", (code, signal) => {
      const said = this.stderr.trim().split("\n")[0] ?? "";
      this.fail(new Error(`git cat-file ${mode} stopped (${signal ?? `exit ${String(code)}`})${said === "" ? "" : `: ${said}`}`));
    });
  }

  request(name: string, maxBytes: number): Promise<GitObjectContent | null> {
    // One request is one line: a name with a line break in it would be two.
    if (name === "" || /[\n\r]/.test(name)) return Promise.reject(new Error(`not an object name: ${JSON.stringify(name)}`));
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ name, maxBytes, resolve, reject });
      // What is asked until the event loop turns goes to git in one write: the promises that answers
      // settle ask their next questions in the same turn, and a write is a system call that wakes git.
      if (this.unsent.length === 0) setImmediate(this.send);
      this.unsent.push(name);
    });
  }

  private readonly send = (): void => {
    const names = this.unsent;
    this.unsent = [];
    if (this.failure === undefined) this.child.stdin.write(`${names.join("\n")}\n`);
  };

  close(): void {
    if (this.failure === undefined) this.fail(new Error(`git cat-file ${this.mode} was closed`));
    this.child.stdin.end();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    const pending = this.queue.splice(this.head);
    this.queue.length = 0;
    this.head = 0;
    if (this.body !== undefined) pending.unshift(this.body.pending);
    this.body = undefined;
    for (const request of pending) request.reject(this.failure);
  }

  private next(): Pending | undefined {
    const pending = this.queue[this.head];
    if (pending === undefined) return undefined;
    this.head += 1;
    // Drop answered requests now and then, not one shift per answer.
    if (this.head > 1024) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return pending;
  }

  private receive(chunk: Buffer): void {
    let data = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    this.buffered = EMPTY;
    while (data.length > 0) {
      if (this.body !== undefined) {
        data = this.fillBody(this.body, data);
        continue;
      }
      const end = data.indexOf(NEWLINE);
      if (end === -1) {
        this.buffered = data;
        return;
      }
      const line = data.toString("utf8", 0, end);
      data = data.subarray(end + 1);
      const pending = this.next();
      if (pending === undefined) {
        this.fail(new Error(`git cat-file ${this.mode} answered a request that was never made: ${line}`));
        return;
      }
      this.header(pending, line);
    }
  }

  private header(pending: Pending, line: string): void {
    // "<oid> <type> <size>", or "<name> missing" / "<name> ambiguous" (the name may hold spaces).
    const match = /^([0-9a-f]{40}|[0-9a-f]{64}) (\S+) (\d+)$/.exec(line);
    if (match === null) {
      pending.resolve(null);
      return;
    }
    const info = { oid: match[1] ?? "", type: match[2] ?? "", size: Number(match[3]) };
    if (this.mode === "--batch-check") {
      pending.resolve({ ...info, data: EMPTY });
      return;
    }
    this.body = { pending, info, chunks: [], kept: 0, remaining: info.size + 1 };
  }

  /** Takes what belongs to the object being received; returns the rest. */
  private fillBody(body: Body, data: Buffer): Buffer {
    const take = Math.min(body.remaining, data.length);
    const content = Math.min(take, body.remaining - 1, body.pending.maxBytes - body.kept);
    if (content > 0) {
      body.chunks.push(data.subarray(0, content));
      body.kept += content;
    }
    body.remaining -= take;
    if (body.remaining === 0) {
      this.body = undefined;
      // A copy, always: a slice would keep the whole chunk it came in alive for as long as the object is cached.
      body.pending.resolve({ ...body.info, data: Buffer.concat(body.chunks, body.kept) });
    }
    return data.subarray(take);
  }
}
