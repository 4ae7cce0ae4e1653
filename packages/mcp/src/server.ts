import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { RootsListChangedNotificationSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describeRule, lintFile, lintTask, lintText, listRules, loadReturnlintConfig, type CatalogueEntry, type LintedReturn, type LintReturnOptions } from "@returnlint/api";
import { ReturnlintError } from "@returnlint/core";
import { z } from "zod";
import { VERSION } from "./version.js";


/** The tools' names: a contract, like the CLI's flags. */
export const TOOLS = ["validate_return", "check_task", "list_rules", "explain_rule"] as const;

export interface ServerOptions {
  /** The project root until the client sends MCP roots (default: the current directory). */
  readonly cwd?: string;
  /** A config file to use instead of discovery (`returnlint-mcp --config FILE`). */
  readonly configFile?: string;
  /** Where the server says what went wrong outside a tool call (default: standard error; standard output is the protocol's). */
  readonly log?: (line: string) => void;
}

const RESULT = z.object({ ruleId: z.string(), level: z.string(), messageId: z.string(), message: z.string() }).passthrough();

/** One claimed artifact and its fate (docs/phantom-work.md). */
const ARTIFACT = z.object({ pointer: z.string(), path: z.string(), fate: z.string() }).passthrough();

/** `check --format json`'s report object. */
const REPORT = {
  ok: z.boolean(),
  command: z.string().nullable(),
  format: z.string(),
  status: z.string().nullable(),
  errorCount: z.number(),
  warningCount: z.number(),
  source: z.string(),
  agent: z.string(),
  preset: z.string(),
  origin: z.string(),
  task: z.string().optional(),
  phantom: z.boolean(),
  phantomReason: z.string().optional(),
  artifacts: z.array(ARTIFACT),
  unlistedArtifacts: z.number().optional(),
  results: z.array(RESULT),
};

/** A task number as clients send it: 259 or "259" (JSON has numbers; a model often writes a string). */
const TASK_NUMBER = z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d+$/, "a task number")]);

const EXPECTED = {
  command: z.string().min(1).optional().describe("The orchestrator command the return answers: research, plan, revise, implement, … (default: the config's)"),
  sessionId: z.string().min(1).optional().describe("The session id the orchestrator gave the subagent, to compare with metadata.session_id"),
};

/**
 * The returnlint MCP server: a subagent checks its own return before it returns.
 * It reads only inside the project root and never writes anything.
 */
export function createServer(options: ServerOptions = {}): McpServer {
  const log = options.log ?? ((line: string) => process.stderr.write(`returnlint-mcp: ${line}\n`));
  const project = new Project(path.resolve(options.cwd ?? process.cwd()), options.configFile);
  const server = new McpServer(
    { name: "returnlint", version: VERSION },
    {
      instructions:
        "returnlint checks a subagent's return before it is handed back: the JSON, its fields, its status, its session id, and that every artifact it claims exists. Call validate_return with your final JSON return (or the path of the metadata file you wrote) before you finish; fix every line it gives you, and call it again until it passes.",
    },
  );

  server.registerTool(
    "validate_return",
    {
      title: "Validate a return",
      description:
        "Checks a subagent's return before it is handed back: give `text` (the final message or the JSON return) or `path` (a file inside the project, e.g. specs/259_x/.return-meta.json), not both. Answers with the report of `returnlint check --format json` and, as text, one line per problem to fix.",
      inputSchema: {
        text: z.string().optional().describe("The return: the JSON object, or the whole final message that holds it"),
        path: z.string().min(1).optional().describe("A file inside the project root holding the return, e.g. specs/259_x/.return-meta.json"),
        ...EXPECTED,
        task: TASK_NUMBER.optional().describe("The task number the return is for, e.g. 259"),
        agent: z.string().min(1).optional().describe("The agent that wrote the return, as messages should name it"),
      },
      outputSchema: REPORT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) =>
      answer(log, async () => {
        if ((args.text === undefined) === (args.path === undefined)) {
          throw new ReturnlintError("USAGE", "Give exactly one of text (the return itself) and path (a file holding it).");
        }
        const lint = await project.options({ command: args.command, sessionId: args.sessionId, task: args.task === undefined ? undefined : String(args.task), agent: args.agent });
        return args.path === undefined ? lintText(args.text ?? "", lint) : lintFile(args.path, lint);
      }),
  );

  server.registerTool(
    "check_task",
    {
      title: "Check a task's metadata file",
      description:
        "Checks specs/{N}_{SLUG}/.return-meta.json (or specs/{PREFIX}_{N}_{SLUG}/, e.g. OpenCode's OC_ folders), the metadata file of task N, as `returnlint check --task N --format json` does; a task folder without one is a finding.",
      inputSchema: { task: TASK_NUMBER.describe("The task number, e.g. 259 (a number or a string of digits)"), ...EXPECTED },
      outputSchema: REPORT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => answer(log, async () => lintTask(String(args.task), await project.options({ command: args.command, sessionId: args.sessionId }))),
  );

  server.registerTool(
    "list_rules",
    {
      title: "List the rules",
      description: "Every rule returnlint can run in this project, with the severity each preset and the config give it, as `returnlint rules --format json` lists them.",
      outputSchema: { rules: z.array(z.object({ id: z.string(), description: z.string() }).passthrough()) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () =>
      tool(log, async () => {
        const rules = await listRules(await project.config());
        return { content: [{ type: "text", text: JSON.stringify(rules, null, 2) }], structuredContent: { rules } };
      }),
  );

  server.registerTool(
    "explain_rule",
    {
      title: "Explain a rule",
      description: "One rule's documentation, as `returnlint explain RULE` prints it: what it checks, its messages, its options.",
      inputSchema: { rule: z.string().min(1).describe("The rule's id, e.g. artifacts") },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => tool(log, async () => ({ content: [{ type: "text", text: await describeRule(await project.config(), args.rule, readmeOf) }] })),
  );

  // The client's roots, when it has them, say where the project is.
  server.server.oninitialized = () => {
    if (server.server.getClientCapabilities()?.roots === undefined) return;
    const update = () => {
      server.server.listRoots().then(
        ({ roots }) => {
          const root = roots.map((entry) => entry.uri).find((uri) => uri.startsWith("file://"));
          if (root !== undefined) project.moveTo(fileURLToPath(root));
        },
        (error: unknown) => {
          log(`could not list the client's roots (${error instanceof Error ? error.message : String(error)}); the project root stays ${project.root}.`);
        },
      );
    };
    if (server.server.getClientCapabilities()?.roots?.listChanged === true) {
      server.server.setNotificationHandler(RootsListChangedNotificationSchema, update);
    }
    update();
  };
  return server;
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

/** A tool's answer: the report as structured content, and the lines for the subagent as text. */
function answer(log: (line: string) => void, run: () => Promise<LintedReturn>): Promise<CallToolResult> {
  return tool(log, async () => {
    const { report, reask } = await run();
    return { content: [{ type: "text", text: reask }], structuredContent: report };
  });
}

/** Runs a tool: returnlint's own errors (usage, configuration, a path it will not read) become a tool error with their sentence. */
async function tool(log: (line: string) => void, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ReturnlintError) return { content: [{ type: "text", text: [error.message, ...error.problems].join("\n  - ") }], isError: true };
    log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { content: [{ type: "text", text: `returnlint had an internal error: ${error instanceof Error ? error.message : String(error)}` }], isError: true };
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
    public root: string,
    private readonly configFile: string | undefined,
  ) {
    this.loaded = this.load();
    // A config that cannot be loaded is said on the first tool call; nothing is thrown at start.
    this.loaded.catch(() => undefined);
  }

  moveTo(root: string): void {
    if (root === this.root) return;
    this.root = root;
    this.loaded = undefined;
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

  async options(expected: { command?: string; sessionId?: string; task?: string; agent?: string }): Promise<LintReturnOptions> {
    const config = await this.config();
    return {
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
