import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO } from "../helpers.js";
import { STACK_FRAME, metadataReturn, mkfifo, scratch, v7Return, write } from "./harness.js";

// Issue 31, point 3: the MCP server against the subagent it serves. The server is the built
// returnlint-mcp, spawned over stdio and spoken to line by line, as a client that sends anything
// at all would. Every wait has a deadline: a hang is a failed case, never a stuck suite.

const SERVER = path.join(REPO, "packages/mcp/dist/bin.js");
/** What the server takes in one line: twice RETURNLINT_MAX_INPUT_BYTES (10 MiB) and 64 KiB for the envelope. */
const MAX_LINE_BYTES = 2 * 10 * 1024 * 1024 + 64 * 1024;

interface Answer {
  readonly id?: string | number | null;
  readonly result?: { readonly isError?: boolean; readonly content: readonly { type: string; text?: string }[]; readonly structuredContent?: Record<string, unknown> };
  readonly error?: { readonly code: number; readonly message: string };
}

/** One returnlint-mcp process and the lines it wrote, each answer kept with its size. */
class Server {
  readonly answers: { answer: Answer; bytes: number }[] = [];
  stderr = "";
  private pending: Buffer[] = [];
  /** Each waiting `next`: true once it found its answer. */
  private waiters: (() => boolean)[] = [];
  readonly exited: Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(cwd: string, roots?: readonly string[]) {
    this.child = spawn(process.execPath, [SERVER], { cwd, env: { PATH: process.env.PATH ?? "" } });
    this.child.stdout.on("data", (chunk: Buffer) => {
      this.read(chunk);
    });
    this.child.stderr.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.child.stdin.on("error", () => undefined);
    this.exited = new Promise((resolve) => {
      this.child.on("close", (status, signal) => {
        resolve({ status, signal });
      });
    });
    this.send({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: roots === undefined ? {} : { roots: { listChanged: true } }, clientInfo: { name: "adversary", version: "1" } } });
    // As a client does, initialized once initialize is answered; then the server asks for the roots, and gets these.
    void this.answerTo("init").then(async () => {
      this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      if (roots === undefined) return;
      const asked = await this.next((answer) => (answer as { method?: string }).method === "roots/list", 10_000);
      this.send({ jsonrpc: "2.0", id: asked.id, result: { roots: roots.map((uri) => ({ uri })) } });
    });
    servers.push(this);
  }

  /** Writes one line: an object as JSON, a string as it is. */
  send(message: unknown): void {
    this.child.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  /** The answer to request `id`, waited for at most `ms`. */
  answerTo(id: string | number | null, ms = 20_000): Promise<Answer> {
    return this.next((answer) => answer.id === id && (answer.result !== undefined || answer.error !== undefined), ms);
  }

  call(id: number | string, name: string, args: Record<string, unknown>, ms = 20_000): Promise<Answer> {
    this.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    return this.answerTo(id, ms);
  }

  /** The server is still up: it lists its tools. */
  async alive(id: string): Promise<boolean> {
    this.send({ jsonrpc: "2.0", id, method: "tools/list" });
    const answer = await this.answerTo(id, 10_000);
    return (answer.result as { tools?: unknown[] } | undefined)?.tools?.length === 4;
  }

  sizeOf(id: string | number): number {
    return this.answers.find((entry) => entry.answer.id === id)?.bytes ?? -1;
  }

  stop(): Promise<unknown> {
    this.child.kill("SIGKILL");
    return this.exited;
  }

  private next(match: (answer: Answer) => boolean, ms: number): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no answer within ${String(ms)} ms; stderr: ${this.stderr.slice(0, 500)}`));
      }, ms);
      const check = () => {
        const found = this.answers.find((entry) => match(entry.answer));
        if (found === undefined) return false;
        clearTimeout(timer);
        resolve(found.answer);
        return true;
      };
      if (!check()) this.waiters.push(check);
    });
  }

  private read(chunk: Buffer): void {
    let rest = chunk;
    for (let end = rest.indexOf(0x0a); end !== -1; end = rest.indexOf(0x0a)) {
      const line = Buffer.concat([...this.pending, rest.subarray(0, end)]);
      this.pending = [];
      rest = rest.subarray(end + 1);
      this.answers.push({ answer: JSON.parse(line.toString("utf8")) as Answer, bytes: line.length });
      this.waiters = this.waiters.filter((waiter) => !waiter());
    }
    if (rest.length > 0) this.pending.push(rest);
  }
}

const servers: Server[] = [];
// After all the file's cases, not each: the slow ones run at once.
afterAll(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

const textOf = (answer: Answer) => (answer.result?.content ?? []).map((block) => block.text ?? "").join("");

/** A console return claiming `count` artifacts as bare paths: two findings each (the amplifier). */
function bareArtifacts(count: number): string {
  return JSON.stringify(v7Return([], { artifacts: Array.from({ length: count }, () => "a") }));
}

describe("3. the MCP server: every line bounded, every message answered, the server stays up", { timeout: 60_000 }, () => {
  it("a request over the line limit is refused under its own id (-32600), skipped unbuffered, and the next one is answered", async () => {
    const server = new Server(scratch());
    // The SDK's client writes the id last: the server finds it at the end of the line it skipped.
    const text = "x".repeat(MAX_LINE_BYTES + 1024);
    server.send(`{"method":"tools/call","params":{"name":"validate_return","arguments":{"text":"${text}"}},"jsonrpc":"2.0","id":41}`);
    const refused = await server.answerTo(41);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toMatch(/^The request is larger than 21037056 bytes, the most this server reads in one message; it was skipped\./);
    expect(await server.alive("after")).toBe(true);
    expect(server.stderr).toMatch(/^returnlint-mcp: answered request 41 with -32600: The request is larger than/m);
  });

  it("a text over RETURNLINT_MAX_INPUT_BYTES within the line limit is a tool error in a sentence, as check says it", async () => {
    const server = new Server(scratch());
    const answer = await server.call(1, "validate_return", { text: "y".repeat(10 * 1024 * 1024 + 1) });
    expect(answer.result?.isError).toBe(true);
    expect(textOf(answer)).toMatch(/^Refusing to read the text: it is larger than 10 MiB\./);
  });

  it("a 480 KB request does not answer 109 MB: at most 100 results and reask lines, the rest counted", async () => {
    const server = new Server(scratch());
    const text = bareArtifacts(120_000);
    expect(text.length).toBeGreaterThan(480_000);
    const answer = await server.call(1, "validate_return", { text }, 50_000);
    expect(server.sizeOf(1)).toBeLessThan(512 * 1024);
    const report = answer.result?.structuredContent as { ok: boolean; errorCount: number; results: unknown[]; unlistedResults: number };
    expect(report.ok).toBe(false);
    expect(report.results).toHaveLength(100);
    expect(report.results.length + report.unlistedResults).toBeGreaterThanOrEqual(120_000);
    const lines = textOf(answer).trimEnd().split("\n");
    expect(lines).toHaveLength(101);
    expect(lines.at(-1)).toMatch(/^- … and \d+ more problems: fix these, then call validate_return again to see the rest\.$/);
  });

  it("malformed messages get their JSON-RPC error and one stderr line each; the server answers the next request", async () => {
    const server = new Server(scratch());
    const cases: [string, unknown, string | number | null, number, RegExp][] = [
      ["not JSON", "this is not json", null, -32700, /^The line is not JSON/],
      ["an empty batch", "[]", null, -32600, /^A batch \(a JSON array\) is not accepted/],
      ["null", "null", null, -32600, /^The message is not a JSON-RPC request object\.$/],
      ["no method", { jsonrpc: "2.0", id: 11 }, 11, -32600, /^The request has no "method"\.$/],
      ["an object id", { jsonrpc: "2.0", id: { a: 1 }, method: "tools/list" }, null, -32600, /"id" must be a string .* or an integer/],
      ["params: null", { jsonrpc: "2.0", id: 12, method: "tools/call", params: null }, 12, -32600, /^The "params" of tools\/call must be an object\.$/],
      ["an unknown method", { jsonrpc: "2.0", id: 13, method: "tools/destroy" }, 13, -32601, /Method not found/],
      ["a constructor argument", `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"validate_return","arguments":{"constructor":1,"text":"{}"}}}`, 14, -32602, /^validate_return takes no argument "constructor"; its arguments are text, path/],
      ["a __proto__ argument", `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"check_task","arguments":{"__proto__":{"task":1},"task":1}}}`, 15, -32602, /^check_task takes no argument "__proto__"/],
      ["an unknown tool", { jsonrpc: "2.0", id: 16, method: "tools/call", params: { name: "constructor", arguments: {} } }, 16, -32602, /^Unknown tool "constructor"; the tools are validate_return, check_task, list_rules, explain_rule\.$/],
      ["bad initialize params", { jsonrpc: "2.0", id: 17, method: "initialize", params: {} }, 17, -32602, /^Invalid params for initialize at params\.protocolVersion/],
    ];
    for (const [, message] of cases) server.send(message);
    expect(await server.alive("after")).toBe(true);
    for (const [what, , id, code, words] of cases) {
      const answer = await server.answerTo(id === null ? null : id, 5_000).catch(() => undefined);
      const answered = id === null ? server.answers.filter((entry) => entry.answer.id === null && entry.answer.error?.code === code && words.test(entry.answer.error.message)) : [answer];
      expect(answered.length, what).toBeGreaterThan(0);
      if (id !== null) {
        expect(answer?.error?.code, what).toBe(code);
        expect(answer?.error?.message, what).toMatch(words);
      }
    }
    expect(server.stderr.split("\n").filter((line) => line.startsWith("returnlint-mcp: answered request"))).toHaveLength(cases.length);
    expect(server.stderr).not.toMatch(STACK_FRAME);
  });

  it.each([
    ["file:// roots that are no folder here (another host, an encoded slash, a folder not there)", ["file://host/share", "file:///a%2Fb", "file:///no/such/folder"], /none of the client's roots is a folder on this machine \("file:\/\/host\/share", .*\); the project root stays /],
    ["roots that are not file:// URIs", ["http://example.invalid/x", "not a uri"], /could not list the client's roots \(its answer is not a list of file:\/\/ URIs\); the project root stays /],
  ])("client %s are passed over with a sentence; the server keeps its folder", async (_, roots, said) => {
    const root = scratch();
    write(root, { "specs/1_x/r.md": "# R\n" });
    const server = new Server(root, roots);
    await expect.poll(() => server.stderr, { timeout: 10_000 }).toMatch(said);
    expect(server.stderr.trimEnd().split("\n")).toHaveLength(1);
    const answer = await server.call(1, "validate_return", { text: JSON.stringify(v7Return(["specs/1_x/r.md"])) });
    expect(answer.result?.structuredContent).toMatchObject({ ok: true });
  });

  it("validate_return {path} refuses a hard-linked file (its other name may be outside the root) and does not show its content", async () => {
    const outside = scratch();
    const root = scratch();
    writeFileSync(path.join(outside, "secret.txt"), "TOP-SECRET-CONTENT\n");
    mkdirSync(path.join(root, "specs/1_x"), { recursive: true });
    linkSync(path.join(outside, "secret.txt"), path.join(root, "specs/1_x/.return-meta.json"));
    const server = new Server(root);
    for (const [id, args] of [[1, { path: "specs/1_x/.return-meta.json" }], [2, { path: "specs/1_x/notes.txt" }]] as const) {
      if (id === 2) linkSync(path.join(outside, "secret.txt"), path.join(root, "specs/1_x/notes.txt"));
      const answer = await server.call(id, "validate_return", args);
      expect(answer.result?.isError).toBe(true);
      expect(textOf(answer)).toMatch(/refusing to read specs\/1_x\/(\.return-meta\.json|notes\.txt): it is a hard link \(the file has \d names\)/);
      expect(JSON.stringify(answer)).not.toContain("TOP-SECRET");
    }
    // The same file, written on its own, is read.
    rmSync(path.join(root, "specs/1_x/.return-meta.json"));
    write(root, { "specs/1_x/.return-meta.json": metadataReturn([]) });
    expect((await server.call(3, "validate_return", { path: "specs/1_x/.return-meta.json" })).result?.isError).toBeUndefined();
  });

  it("a NUL in a path is a plain sentence, with no Node message and no /proc/self/fd path", async () => {
    const server = new Server(scratch());
    const answer = await server.call(1, "validate_return", { path: "specs/a\u0000b/.return-meta.json" });
    expect(answer.result?.isError).toBe(true);
    expect(textOf(answer)).toBe("The path has a NUL character in it, which no file name can hold; give the path of the return file.");
  });

  it("check_task and validate_return do not echo a 2 MB argument back", async () => {
    const server = new Server(scratch());
    const long = "2".repeat(2 * 1024 * 1024);
    const answers = [await server.call(1, "check_task", { task: long }), await server.call(2, "validate_return", { text: "{}", command: `c${long}` }), await server.call(3, "explain_rule", { rule: long })];
    for (const [index, answer] of answers.entries()) {
      expect(answer.result?.isError, String(index)).toBe(true);
      expect(server.sizeOf(index + 1), String(index)).toBeLessThan(2048);
    }
  });
});

describe.concurrent("3. the MCP server: no call runs past its deadline or out of memory, and the protocol answers meanwhile", { timeout: 100_000 }, () => {
  // Each case costs at most the 30 s deadline (less once findings are bounded in the runner).
  it.each([
    ["2.8 MB (issue 31: past 150 s)", 700_000],
    ["6 MB (issue 31: V8 out of memory)", 1_500_000],
  ])("a %s request of bare-path artifacts is answered within the deadline, boundedly", async (_, count) => {
    const server = new Server(scratch());
    const started = Date.now();
    const call = server.call(1, "validate_return", { text: bareArtifacts(count) }, 60_000);
    // The protocol is not the checking thread: it answers while the call runs.
    expect(await server.alive("meanwhile")).toBe(true);
    const answer = await call;
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(server.sizeOf(1)).toBeLessThan(512 * 1024);
    if (answer.result?.isError === true) expect(textOf(answer)).toMatch(/^returnlint stopped this call (after 30 s without an answer|: checking it needed more than 1024 MB of memory)/);
    else expect(answer.result?.structuredContent).toMatchObject({ ok: false });
    expect(await server.alive("after")).toBe(true);
    expect(server.stderr).not.toMatch(/FATAL ERROR|heap out of memory/);
  });

  it("a config swapped for a FIFO under the running server: the call ends in a sentence, the server stays up", async () => {
    const root = scratch();
    write(root, { "returnlint.config.json": { commands: { survey: {} } } });
    const server = new Server(root);
    expect((await server.call(1, "list_rules", {})).result?.isError).toBeUndefined();
    rmSync(path.join(root, "returnlint.config.json"));
    mkfifo(path.join(root, "returnlint.config.json"));
    const answer = await server.call(2, "list_rules", {}, 60_000);
    expect(answer.result?.isError).toBe(true);
    expect(textOf(answer)).not.toBe("");
    expect(await server.alive("after")).toBe(true);
  });
});
