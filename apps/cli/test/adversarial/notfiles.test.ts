import { spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, renameSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { finalMessage, subagentStop } from "../claude-payloads.js";
import { BIN, STACK_FRAME, mkfifo, run, scratch, v7Return, write, type Ran } from "./harness.js";

// Issue 31, point 2: files returnlint reads for itself (configs found by discovery and the
// package.json files it walks past, a rule package's manifest, agent definitions, transcripts)
// that are not regular files. A subagent can plant any of them. Each is refused from a handle
// that reads nothing: a sentence and exit 2 for check, the hook's documented give-way. Every
// case has a deadline well under the 10 s a module gets to load, so a read that waited fails it.

const QUICK = 8_000;

/** A run that ended by itself, quickly, with no native stack: what every case below needs first. */
function ended(ran: Ran): Ran {
  expect(ran.signal).toBeNull();
  expect(ran.ms).toBeLessThan(QUICK);
  expect(ran.stderr).not.toMatch(STACK_FRAME);
  return ran;
}

/** Plants a symlink to /dev/zero at `file`: reading it never ends. */
function linkToZero(file: string): void {
  symlinkSync("/dev/zero", file);
}

/** A project with a passing return in r.json, and `plant` run on its root. */
function projectWith(plant: (root: string) => void): string {
  const root = scratch();
  write(root, { "r.json": v7Return([]) });
  plant(root);
  return root;
}

const check = (cwd: string, args: readonly string[] = ["r.json"]) => ended(run(["check", ...args], { cwd, timeout: 20_000 }));

describe("2. config files that are not files: check says so and exits 2", { timeout: 120_000 }, () => {
  it.each([
    ["a FIFO named returnlint.config.json", "returnlint.config.json", mkfifo, "it is a FIFO (named pipe), not a regular file"],
    ["a FIFO named package.json", "package.json", mkfifo, "it is a FIFO (named pipe), not a regular file"],
    ["returnlint.config.json linked to /dev/zero", "returnlint.config.json", linkToZero, "it is a character device, not a regular file"],
    ["returnlint.config.yaml linked to /dev/zero", "returnlint.config.yaml", linkToZero, "it is a character device, not a regular file"],
    ["returnlint.config.mjs linked to /dev/zero (never imported)", "returnlint.config.mjs", linkToZero, "it is a character device, not a regular file"],
    ["a FIFO named returnlint.config.mjs (never imported)", "returnlint.config.mjs", mkfifo, "it is a FIFO (named pipe), not a regular file"],
    ["a folder named returnlint.config.json", "returnlint.config.json", (file: string) => { mkdirSync(file); }, "it is a directory, not a regular file"],
    ["a 17 MiB returnlint.config.json", "returnlint.config.json", (file: string) => { writeFileSync(file, `{"x":"${"a".repeat(17 * 1024 * 1024)}"}`); }, "it is larger than 16 MiB (17 MiB)"],
  ])("%s in the project", (_name, name, plant, reason) => {
    const root = projectWith((dir) => { plant(path.join(dir, name)); });
    const ran = check(root);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Cannot read config ${path.join(root, name)}: ${reason}.\n`);
  });

  it("a FIFO named package.json two folders above, where discovery walks", () => {
    const root = projectWith((dir) => {
      mkfifo(path.join(dir, "package.json"));
      mkdirSync(path.join(dir, "work", "deep"), { recursive: true });
    });
    const ran = check(path.join(root, "work", "deep"), ["../../r.json"]);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Cannot read config ${path.join(root, "package.json")}: it is a FIFO (named pipe), not a regular file.\n`);
  });

  it("--config naming a FIFO", () => {
    const root = projectWith((dir) => { mkfifo(path.join(dir, "custom.json")); });
    const ran = check(root, ["r.json", "--config", "custom.json"]);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toContain("it is a FIFO (named pipe), not a regular file.");
  });

  it("a rule package whose package.json is a FIFO: the config's rule is not found, in a sentence", () => {
    const root = projectWith((dir) => {
      write(dir, { "returnlint.config.json": { rules: { planted: "error" } } });
      mkdirSync(path.join(dir, "node_modules", "returnlint-rule-planted"), { recursive: true });
      mkfifo(path.join(dir, "node_modules", "returnlint-rule-planted", "package.json"));
    });
    const ran = check(root);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toContain(`cannot read ${path.join(root, "node_modules", "returnlint-rule-planted", "package.json")} of package "returnlint-rule-planted": it is a FIFO (named pipe), not a regular file`);
  });

  it("print-config and scan meet the same sentence", () => {
    const root = projectWith((dir) => {
      symlinkSync("/dev/zero", path.join(dir, "returnlint.config.json"));
      mkdirSync(path.join(dir, "specs"));
    });
    for (const args of [["print-config"], ["scan"]]) {
      const ran = ended(run(args, { cwd: root, timeout: 20_000 }));
      expect(ran.status).toBe(2);
      expect(ran.stderr).toContain("it is a character device, not a regular file.");
    }
  });
});

describe("2. the hook meets a config or a definition that is not a file: a visible sentence, then its documented give-way", { timeout: 120_000 }, () => {
  const payload = (root: string, extra: Readonly<Record<string, unknown>> = {}) =>
    JSON.stringify({ ...subagentStop({ cwd: root, agentType: "researcher", message: finalMessage(["specs/1_x/missing.md"]) }), ...extra });
  const hook = (root: string, args: readonly string[] = [], extra?: Readonly<Record<string, unknown>>) =>
    ended(run(["hook", "claude", ...args], { cwd: root, input: payload(root, extra), timeout: 20_000 }));

  it.each([
    ["a FIFO config", (root: string) => { mkfifo(path.join(root, "returnlint.config.json")); }, "it is a FIFO (named pipe), not a regular file"],
    ["a config linked to /dev/zero", (root: string) => { symlinkSync("/dev/zero", path.join(root, "returnlint.config.yml")); }, "it is a character device, not a regular file"],
    ["a FIFO package.json", (root: string) => { mkfifo(path.join(root, "package.json")); }, "it is a FIFO (named pipe), not a regular file"],
  ])("%s: the stop goes through with a systemMessage; --fail-closed exits 2 with the sentence", (_name, plant, reason) => {
    const root = projectWith(plant);
    const open = hook(root);
    expect(open.status).toBe(0);
    const answer = JSON.parse(open.stdout) as { systemMessage?: string; decision?: string };
    expect(answer.decision).toBeUndefined();
    expect(answer.systemMessage).toContain(reason);
    expect(answer.systemMessage).toContain("--fail-closed blocks instead");
    const closed = hook(root, ["--fail-closed"]);
    expect(closed.status).toBe(2);
    expect(closed.stdout).toBe("");
    expect(closed.stderr).toContain(reason);
  });

  it.each([
    ["linked to /dev/zero", linkToZero, "it is a character device, not a regular file"],
    ["a FIFO", mkfifo, "it is a FIFO (named pipe), not a regular file"],
    ["a 2 MiB file", (file: string) => { writeFileSync(file, "x".repeat(2 * 1024 * 1024)); }, "it is larger than 1 MiB (2 MiB)"],
  ])("the agent's definition .claude/agents/researcher.md %s: said, and --fail-closed holds the agent", (_name, plant, reason) => {
    const root = projectWith((dir) => {
      mkdirSync(path.join(dir, ".claude", "agents"), { recursive: true });
      plant(path.join(dir, ".claude", "agents", "researcher.md"));
    });
    // Said inside the hook's "could not check the return of researcher: …" sentence, which drops the full stop.
    const sentence = `Cannot read the agent definition ${path.join(root, ".claude", "agents", "researcher.md")}: ${reason}`;
    const open = hook(root);
    expect(open.status).toBe(0);
    expect((JSON.parse(open.stdout) as { systemMessage?: string }).systemMessage).toContain(sentence);
    const closed = hook(root, ["--fail-closed"]);
    expect(closed.status).toBe(2);
    expect(closed.stderr).toContain(sentence);
  });

  it.each([
    ["a FIFO", mkfifo],
    ["linked to /dev/zero", linkToZero],
  ])("a transcript that is %s tells nothing, and the hook still judges the return (block)", (_name, plant) => {
    const root = projectWith((dir) => { plant(path.join(dir, "transcript.jsonl")); });
    const ran = hook(root, [], { agent_transcript_path: path.join(root, "transcript.jsonl") });
    expect(ran.status).toBe(0);
    expect((JSON.parse(ran.stdout) as { decision?: string }).decision).toBe("block");
  });
});

/** A running `returnlint mcp`, spoken to one JSON-RPC line at a time. */
function mcpServer(cwd: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [BIN, "mcp"], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  let buffered = "";
  const waiting = new Map<number, (value: unknown) => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const message = JSON.parse(line) as { id?: number };
      if (typeof message.id === "number") waiting.get(message.id)?.(message);
    }
  });
  let next = 0;
  const request = (method: string, params: unknown, deadline = QUICK): Promise<unknown> => {
    next += 1;
    const id = next;
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`no answer to ${method} within ${String(deadline)} ms`));
      }, deadline);
      waiting.set(id, (value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
  };
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  return {
    request,
    notify: (method: string) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`),
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), QUICK);
      const status = await closed;
      clearTimeout(timer);
      return status;
    },
  };
}

describe("2. a config swapped for a FIFO under a running MCP server", { timeout: 60_000 }, () => {
  it("gives a tool error with the sentence, not a hang, and the server answers the next call", async () => {
    const root = projectWith((dir) => { write(dir, { "returnlint.config.json": { preset: "v7" } }); });
    const server = mcpServer(root);
    try {
      await server.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } }, 30_000);
      server.notify("notifications/initialized");
      const validate = { name: "validate_return", arguments: { text: JSON.stringify(v7Return([])) } };
      const answered = (await server.request("tools/call", validate, 30_000)) as { result: { isError?: boolean; structuredContent?: unknown } };
      expect(answered.result.isError).toBeUndefined();
      expect(answered.result.structuredContent).toMatchObject({ source: "<text>" });

      const config = path.join(root, "returnlint.config.json");
      renameSync(config, path.join(root, "saved.json"));
      mkfifo(config);
      const refused = (await server.request("tools/call", validate)) as { result: { isError: boolean; content: { text: string }[] } };
      expect(refused.result.isError).toBe(true);
      expect(refused.result.content[0]?.text).toBe(`Cannot read config ${config}: it is a FIFO (named pipe), not a regular file.`);

      renameSync(path.join(root, "saved.json"), config);
      expect(((await server.request("tools/call", validate)) as { result: { isError?: boolean } }).result.isError).toBeUndefined();
    } finally {
      expect(await server.close()).toBe(0);
    }
  });
});

// Issue 31, point 7: `init` edits a host's settings as text. What init does not own stays byte
// for byte (numbers JSON.parse would round or turn to null, keys written twice, indentation,
// line endings); a symlink stays a symlink; what it cannot edit safely is a sentence, and nothing
// is written. Agent definitions that are not files are skipped, never read.

const HOOK = { type: "command", command: 'node "${CLAUDE_PROJECT_DIR:-.}"/.claude/hooks/returnlint.cjs hook claude', timeout: 30 };
/** What JSON.parse and JSON.stringify would lose: a number past 2^53, one past double range, a key written twice. */
const LOSSY = '{"big":12345678901234567890,"inf":1e400,"dup":1,"dup":2}';

const init = (cwd: string, args: readonly string[]) => ended(run(["init", ...args], { cwd, timeout: 30_000 }));
const read = (file: string) => readFileSync(file, "utf8");

describe("7. init edits host settings as text", { timeout: 180_000 }, () => {
  it.each([
    [".claude/settings.json", ["claude"], `, "hooks": ${JSON.stringify({ SubagentStop: [{ hooks: [HOOK] }] })}`],
    [".claude/settings.local.json", ["claude", "--mcp"], `, "enabledMcpjsonServers": ["returnlint"], "permissions": {"allow":["mcp__returnlint"]}`],
    [".mcp.json", ["claude", "--mcp"], `, "mcpServers": {"returnlint":{"command":"npx","args":["--no-install","returnlint-mcp"]}}`],
    ["opencode.json", ["opencode"], `, "plugin": ["@returnlint/opencode"]`],
  ])("%s: big numbers, 1e400 and a key written twice are kept byte for byte; a second run changes nothing", (name, args, inserted) => {
    const root = scratch();
    mkdirSync(path.join(root, ".claude"));
    writeFileSync(path.join(root, name), `${LOSSY}\n`);
    expect(init(root, args).status).toBe(0);
    expect(read(path.join(root, name))).toBe(`${LOSSY.slice(0, -1)}${inserted}}\n`);
    const again = init(root, args);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain("nothing to change");
    expect(read(path.join(root, name))).toBe(`${LOSSY.slice(0, -1)}${inserted}}\n`);
  });

  it("a settings file indented with four spaces and CRLF line endings: the entry is added in its style, the rest untouched", () => {
    const root = scratch();
    const before = ['{', '    "model": "opus",', '    "hooks": {', '        "SubagentStop": [', '            {"hooks": [{"type": "command", "command": "other-tool"}]}', '        ]', '    },', '    "n": 1.50', '}', ''].join("\r\n");
    write(root, { ".claude/settings.json": before });
    expect(init(root, ["claude"]).status).toBe(0);
    const entry = JSON.stringify({ hooks: [HOOK] }, null, 4).replaceAll("\n", "\r\n            ");
    expect(read(path.join(root, ".claude/settings.json"))).toBe(before.replace('"other-tool"}]}', `"other-tool"}]},\r\n            ${entry}`));
  });

  it("an existing returnlint hook: only its matcher and command change, its own options and everything else stay", () => {
    const root = scratch();
    const before = '{\n  "hooks": {\n    "SubagentStop": [\n      { "matcher": "gone", "hooks": [ { "type": "command", "command": "npx returnlint hook claude --fail-closed", "timeout": 30, "x": 1e400 } ] }\n    ]\n  },\n  "big": 12345678901234567890\n}\n';
    write(root, { ".claude/settings.json": before });
    const ran = init(root, ["claude"]);
    expect(ran.status).toBe(0);
    expect(ran.stdout).toContain("Updated the returnlint hook's matcher and command");
    expect(read(path.join(root, ".claude/settings.json"))).toBe(
      before.replace('"matcher": "gone", ', "").replace('"npx returnlint hook claude --fail-closed"', JSON.stringify(`${HOOK.command} --fail-closed`)),
    );
    expect(init(root, ["claude"]).stdout).toContain("nothing to change");
  });

  it("--dry-run prints the edited text and writes nothing", () => {
    const root = scratch();
    write(root, { ".claude/settings.json": `${LOSSY}\n` });
    const ran = init(root, ["claude", "--dry-run"]);
    expect(ran.status).toBe(0);
    expect(ran.stdout).toContain(`.claude/settings.json would read:\n${LOSSY.slice(0, -1)}, "hooks":`);
    expect(read(path.join(root, ".claude/settings.json"))).toBe(`${LOSSY}\n`);
    expect(existsSync(path.join(root, ".claude/hooks"))).toBe(false);
  });

  it("keeps the file's permissions", () => {
    const root = scratch();
    write(root, { ".claude/settings.json": "{}\n" });
    chmodSync(path.join(root, ".claude/settings.json"), 0o600);
    expect(init(root, ["claude"]).status).toBe(0);
    expect(statSync(path.join(root, ".claude/settings.json")).mode & 0o777).toBe(0o600);
  });

  it.each([
    ["a key on the way written twice", ".claude/settings.json", ["claude"], '{"hooks": {}, "hooks": {"Stop": []}}', '"hooks" is written 2 times, and init cannot tell which one the host reads'],
    ["hooks that are not an object", ".claude/settings.json", ["claude"], '{"hooks": []}', '"hooks" is not an object'],
    ["comments in opencode.jsonc", "opencode.jsonc", ["opencode"], '{\n  // mine\n  "plugin": []\n}\n', "it is not JSON (expected a property name in double quotes, found a comment (JSON has no comments)); comments cannot be kept, so add the entry by hand"],
    ["an array", ".mcp.json", ["claude", "--mcp"], "[]", "it is not a JSON object"],
  ])("%s: a sentence, exit 2, and nothing written", (_name, name, args, text, reason) => {
    const root = scratch();
    write(root, { [name]: text });
    const ran = init(root, args);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Cannot update ${path.join(root, name)}: ${reason}. init changes nothing.\n`);
    expect(read(path.join(root, name))).toBe(text);
    expect(existsSync(path.join(root, ".claude/hooks"))).toBe(false);
  });

  it("a symlinked settings file inside the project stays a symlink: its target is edited", () => {
    const root = scratch();
    write(root, { "shared/claude.json": `${LOSSY}\n` });
    mkdirSync(path.join(root, ".claude"));
    symlinkSync("../shared/claude.json", path.join(root, ".claude/settings.json"));
    expect(init(root, ["claude"]).status).toBe(0);
    expect(lstatSync(path.join(root, ".claude/settings.json")).isSymbolicLink()).toBe(true);
    expect(read(path.join(root, "shared/claude.json"))).toBe(`${LOSSY.slice(0, -1)}, "hooks": ${JSON.stringify({ SubagentStop: [{ hooks: [HOOK] }] })}}\n`);
  });

  it.each([
    ["outside the project", () => {
      const elsewhere = path.join(scratch(), "settings.json");
      writeFileSync(elsewhere, "{}\n");
      return elsewhere;
    }, (target: string) => `it is a symbolic link to ${target}, outside the project; edit that file yourself, or replace the link with a file`],
    ["to /dev/zero", () => "/dev/zero", () => "it is a symbolic link to /dev/zero, outside the project; edit that file yourself, or replace the link with a file"],
    ["to nothing", (root: string) => path.join(root, "missing.json"), () => "it is a symbolic link to a file that does not exist"],
  ])("a settings file linked %s: refused, the link and its target untouched", (_name, target, reason) => {
    const root = scratch();
    mkdirSync(path.join(root, ".claude"));
    const linked = target(root);
    symlinkSync(linked, path.join(root, ".claude/settings.json"));
    const ran = init(root, ["claude"]);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Cannot update ${path.join(root, ".claude/settings.json")}: ${reason(linked)}. init changes nothing.\n`);
    expect(readlinkSync(path.join(root, ".claude/settings.json"))).toBe(linked);
    if (existsSync(linked) && linked !== "/dev/zero") expect(read(linked)).toBe("{}\n");
  });

  it("a FIFO named .claude/settings.json: refused at once, never opened for reading", () => {
    const root = scratch();
    mkdirSync(path.join(root, ".claude"));
    mkfifo(path.join(root, ".claude/settings.json"));
    const ran = init(root, ["claude"]);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Cannot update ${path.join(root, ".claude/settings.json")}: it is a FIFO (named pipe), not a regular file. init changes nothing.\n`);
  });

  it("agent definitions linked to /dev/zero or FIFOs are skipped with a warning; the others make the matcher", () => {
    const root = scratch();
    write(root, { ".claude/agents/researcher.md": "---\nname: researcher\n---\nResearch.\n" });
    symlinkSync("/dev/zero", path.join(root, ".claude/agents/zero.md"));
    mkfifo(path.join(root, ".claude/agents/pipe.md"));
    const ran = init(root, ["claude"]);
    expect(ran.status).toBe(0);
    expect(ran.stderr).toContain("returnlint: skipped the agent definition .claude/agents/zero.md: it is a character device, not a regular file.\n");
    expect(ran.stderr).toContain("returnlint: skipped the agent definition .claude/agents/pipe.md: it is a FIFO (named pipe), not a regular file.\n");
    expect(ran.stdout).toContain('(matcher "researcher")');
  });

  it("init (the config) beside a FIFO package.json: writes its config, never waits on the FIFO", () => {
    const root = scratch();
    mkfifo(path.join(root, "package.json"));
    const ran = init(root, ["--preset", "v7"]);
    expect(ran.status).toBe(0);
    expect(existsSync(path.join(root, "returnlint.config.yaml"))).toBe(true);
  });
});
