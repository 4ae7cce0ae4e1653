import { readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describeRule, lintFile, lintTask, lintText, listRules, loadReturnlintConfig, maxInputBytes, tooLarge, type CatalogueEntry, type LintedReturn, type LintReturnOptions } from "@returnlint/api";
import { ReturnlintError } from "@returnlint/core";
import type { ToolName } from "./server.js";


/** One tool call, as the server hands it to the checking thread: its arguments already checked against the tool's schema. */
export interface ToolCall {
  readonly tool: ToolName;
  readonly args: Readonly<Record<string, unknown>>;
  readonly root: string;
}

/** The most results a report lists, and reask lines a subagent is given: it fixes these, then calls again for the rest. */
export const MAX_LISTED_RESULTS = 100;
/** The longest string an answer carries: a message that quotes a return quotes a part of it. */
export const MAX_ANSWER_STRING = 2000;
/** The most problems a tool error lists (a config's problems, all at once, as the CLI says them). */
const MAX_LISTED_PROBLEMS = 20;

/**
 * Runs one call. Everything a tool answers is bounded whatever the return holds (docs/mcp.md):
 * at most MAX_LISTED_RESULTS results and reask lines, each string at most MAX_ANSWER_STRING
 * characters, with how many more there were.
 */
export class Tools {
  private project: Project | undefined;

  constructor(
    private readonly configFile: string | undefined,
    private readonly log: (line: string) => void,
  ) {}

  run(call: ToolCall): Promise<CallToolResult> {
    if (this.project?.root !== call.root) this.project = new Project(call.root, this.configFile);
    const project = this.project;
    const args = call.args as Record<string, string | number | undefined>;
    const optional = (name: string) => (args[name] === undefined ? undefined : String(args[name]));
    const expected = { command: optional("command"), sessionId: optional("sessionId"), transcript: optional("transcript") };
    switch (call.tool) {
      case "validate_return":
        return answer(this.log, async () => {
          const { text, path: file } = args;
          if ((text === undefined) === (file === undefined)) throw new ReturnlintError("USAGE", "Give exactly one of text (the return itself) and path (a file holding it).");
          const options = await project.options({ ...expected, task: optional("task"), agent: optional("agent") });
          if (typeof text === "string") {
            const limit = maxInputBytes();
            if (Buffer.byteLength(text) > limit) throw tooLarge("the text", limit);
            return lintText(text, options);
          }
          return lintFile(String(file), options);
        });
      case "check_task":
        return answer(this.log, async () => lintTask(String(args.task), await project.options(expected)));
      case "list_rules":
        return tool(this.log, async () => {
          const rules = await listRules(await project.config());
          return { content: [{ type: "text", text: JSON.stringify(rules, null, 2) }], structuredContent: { rules } };
        });
      case "explain_rule":
        return tool(this.log, async () => ({ content: [{ type: "text", text: await describeRule(await project.config(), String(args.rule), readmeOf) }] }));
    }
  }
}

/** A built-in rule's README, from its package beside @returnlint/api (what `returnlint explain` prints). */
function readmeOf(entry: CatalogueEntry): string | undefined {
  try {
    const api = createRequire(import.meta.url).resolve("@returnlint/api");
    const manifest = createRequire(api).resolve(`${entry.loaded.source}/package.json`);
    return readFileSync(path.join(path.dirname(manifest), "README.md"), "utf8");
  } catch {
    return undefined;
  }
}

/** A tool's answer: the report as structured content, and the lines for the subagent as text, both bounded. */
function answer(log: (line: string) => void, run: () => Promise<LintedReturn>): Promise<CallToolResult> {
  return tool(log, async () => {
    const { report, reask } = await run();
    // Not listed here: those past this answer's own limit, and those the runner already left out (omittedResults).
    const unlisted = Math.max(0, report.results.length - MAX_LISTED_RESULTS) + (report.omittedResults ?? 0);
    const structured = unlisted === 0 ? report : { ...report, results: report.results.slice(0, MAX_LISTED_RESULTS), unlistedResults: unlisted };
    return { content: [{ type: "text", text: listedLines(reask) }], structuredContent: clipStrings(structured) as Record<string, unknown> };
  });
}

/** The first MAX_LISTED_RESULTS reask lines, and a last one saying how many more there are. */
function listedLines(reask: string): string {
  const lines = reask.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const more = lines.length - MAX_LISTED_RESULTS;
  const listed = lines.slice(0, MAX_LISTED_RESULTS).map((line) => clipped(line));
  if (more > 0) listed.push(`- … and ${String(more)} more problems: fix these, then call validate_return again to see the rest.`);
  return `${listed.join("\n")}\n`;
}

function clipped(text: string): string {
  return text.length <= MAX_ANSWER_STRING ? text : `${text.slice(0, MAX_ANSWER_STRING)}… (${String(text.length - MAX_ANSWER_STRING)} more characters)`;
}

/** A JSON value with every string longer than MAX_ANSWER_STRING cut short. */
function clipStrings(value: unknown): unknown {
  if (typeof value === "string") return clipped(value);
  if (Array.isArray(value)) return value.map(clipStrings);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, clipStrings(entry)]));
  return value;
}

/** Runs a tool: returnlint's own errors (usage, configuration, a path it will not read) become a tool error with their sentence. */
async function tool(log: (line: string) => void, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ReturnlintError) {
      const problems = error.problems.slice(0, MAX_LISTED_PROBLEMS).map(clipped);
      const more = error.problems.length - problems.length;
      if (more > 0) problems.push(`… and ${String(more)} more problems`);
      return { content: [{ type: "text", text: [clipped(error.message), ...problems].join("\n  - ") }], isError: true };
    }
    log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { content: [{ type: "text", text: `returnlint had an internal error: ${clipped(error instanceof Error ? error.message : String(error))}` }], isError: true };
  }
}

/** Something that tells whether a file changed: its identity, size and modification time. */
function signature(file: string | null): string {
  if (file === null) return "";
  try {
    const stats = statSync(file);
    return `${String(stats.ino)}:${String(stats.size)}:${String(stats.mtimeMs)}`;
  } catch {
    return "gone";
  }
}

/** The project root and its config, loaded at start and re-read when the config file changes. */
class Project {
  private loaded: Promise<{ readonly config: Awaited<ReturnType<typeof loadReturnlintConfig>>; readonly signature: string }> | undefined;

  constructor(
    readonly root: string,
    private readonly configFile: string | undefined,
  ) {
    this.loaded = this.load();
    // A config that cannot be loaded is said on the first tool call; nothing is thrown at start.
    this.loaded.catch(() => undefined);
  }

  async config(): Promise<Awaited<ReturnType<typeof loadReturnlintConfig>>> {
    let loaded = this.loaded;
    if (loaded !== undefined) {
      const current = await loaded.catch(() => undefined);
      if (current === undefined || current.signature !== signature(current.config.file)) loaded = undefined;
    }
    loaded ??= this.load();
    this.loaded = loaded;
    return (await loaded).config;
  }

  async options(expected: { command?: string | undefined; sessionId?: string | undefined; task?: string | undefined; agent?: string | undefined; transcript?: string | undefined }): Promise<LintReturnOptions> {
    const config = await this.config();
    return {
      ...(expected.transcript === undefined ? {} : { transcriptPath: transcriptInside(this.root, expected.transcript) }),
      config,
      root: this.root,
      cwd: this.root,
      ...(expected.command === undefined ? {} : { command: expected.command }),
      ...(expected.sessionId === undefined ? {} : { sessionId: expected.sessionId }),
      ...(expected.task === undefined ? {} : { task: expected.task }),
      ...(expected.agent === undefined ? {} : { agent: expected.agent }),
    };
  }

  private async load() {
    const config = await loadReturnlintConfig({ cwd: this.root, ...(this.configFile === undefined ? {} : { configFile: this.configFile }) });
    return { config, signature: signature(config.file) };
  }
}

/**
 * The folders a transcript may be read from: the project, and where the hosts keep theirs
 * (`~/.claude/projects`, Codex's `sessions`, Copilot CLI's `session-state`). The server reads
 * nothing else a client names, and a transcript's facts are all it takes from one.
 */
function transcriptFolders(root: string): string[] {
  const home = homedir();
  return [
    root,
    path.join(process.env.CLAUDE_CONFIG_DIR ?? path.join(home, ".claude"), "projects"),
    path.join(process.env.CODEX_HOME ?? path.join(home, ".codex"), "sessions"),
    path.join(process.env.COPILOT_HOME ?? path.join(home, ".copilot"), "session-state"),
  ];
}

function transcriptInside(root: string, given: string): string {
  const file = path.resolve(root, given);
  let real: string;
  try {
    real = realpathSync.native(file);
  } catch {
    // A transcript that does not exist is the rules' to say (a stated skip); where it would be is still checked.
    real = file;
  }
  const inside = (folder: string) => {
    const relative = path.relative(folder, real);
    return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  };
  if (!transcriptFolders(root).some(inside)) {
    throw new ReturnlintError("USAGE", `transcript must lie inside the project root or a host's transcript folder (${transcriptFolders(root).join(", ")}); received ${given}.`);
  }
  return real;
}
