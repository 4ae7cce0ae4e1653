import { statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, RootsListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { Checker } from "./checker.js";
import { clip, type Refusal } from "./envelope.js";
import { VERSION } from "./version.js";

/** The tools' names: a contract, like the CLI's flags. */
export const TOOLS = ["validate_return", "check_task", "list_rules", "explain_rule"] as const;
export type ToolName = (typeof TOOLS)[number];

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
  /** How many more results the return has than `results` lists (MAX_LISTED_RESULTS). */
  unlistedResults: z.number().optional(),
};

/** A task number as clients send it: 259 or "259" (JSON has numbers; a model often writes a string). */
const TASK_NUMBER = z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,20}$/, "a task number (at most 20 digits)")]);

const EXPECTED = {
  command: z.string().min(1).max(200).optional().describe("The orchestrator command the return answers: research, plan, revise, implement, … (default: the config's)"),
  sessionId: z.string().min(1).max(1000).optional().describe("The session id the orchestrator gave the subagent, to compare with metadata.session_id"),
  transcript: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe("Your own transcript (Claude Code's JSONL, Codex's rollout, Copilot CLI's events.jsonl): the commands, tests, files and subagents the return claims are checked against it"),
};

/** Each tool's arguments (a contract, like the CLI's flags); the longest string each takes is bounded, so no answer echoes a long one. */
const INPUTS = {
  validate_return: {
    text: z.string().optional().describe("The return: the JSON object, or the whole final message that holds it"),
    path: z.string().min(1).max(4096).optional().describe("A file inside the project root holding the return, e.g. specs/259_x/.return-meta.json"),
    ...EXPECTED,
    task: TASK_NUMBER.optional().describe("The task number the return is for, e.g. 259"),
    agent: z.string().min(1).max(200).optional().describe("The agent that wrote the return, as messages should name it"),
  },
  check_task: { task: TASK_NUMBER.describe("The task number, e.g. 259 (a number or a string of digits)"), ...EXPECTED },
  list_rules: {},
  explain_rule: { rule: z.string().min(1).max(200).describe("The rule's id, e.g. artifacts") },
} satisfies Record<ToolName, z.ZodRawShape>;

/**
 * The returnlint MCP server: a subagent checks its own return before it returns.
 * It reads only inside the project root and never writes anything. The tools run in a
 * thread of their own, each call with a deadline and a memory limit (checker.ts).
 */
export function createServer(options: ServerOptions = {}): McpServer {
  const log = options.log ?? ((line: string) => process.stderr.write(`returnlint-mcp: ${line}\n`));
  let root = path.resolve(options.cwd ?? process.cwd());
  const checker = new Checker(options.configFile, log);
  checker.warm();
  const run = (tool: ToolName) => (args: Record<string, unknown>) => checker.run({ tool, args, root });
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
      inputSchema: INPUTS.validate_return,
      outputSchema: REPORT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run("validate_return"),
  );

  server.registerTool(
    "check_task",
    {
      title: "Check a task's metadata file",
      description:
        "Checks specs/{N}_{SLUG}/.return-meta.json (or specs/{PREFIX}_{N}_{SLUG}/, e.g. OpenCode's OC_ folders), the metadata file of task N, as `returnlint check --task N --format json` does; a task folder without one is a finding.",
      inputSchema: INPUTS.check_task,
      outputSchema: REPORT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run("check_task"),
  );

  server.registerTool(
    "list_rules",
    {
      title: "List the rules",
      description: "Every rule returnlint can run in this project, with the severity each preset and the config give it, as `returnlint rules --format json` lists them.",
      outputSchema: { rules: z.array(z.object({ id: z.string(), description: z.string() }).passthrough()) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => checker.run({ tool: "list_rules", args: {}, root }),
  );

  server.registerTool(
    "explain_rule",
    {
      title: "Explain a rule",
      description: "One rule's documentation, as `returnlint explain RULE` prints it: what it checks, its messages, its options.",
      inputSchema: INPUTS.explain_rule,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    run("explain_rule"),
  );

  // The client's roots, when it has them, say where the project is.
  server.server.oninitialized = () => {
    if (server.server.getClientCapabilities()?.roots === undefined) return;
    const update = () => {
      server.server.listRoots().then(
        ({ roots }) => {
          const found = projectRoot(roots.map((entry) => entry.uri));
          if (typeof found === "string") root = found;
          else if (found !== undefined) log(`${found.problem}; the project root stays ${root}.`);
        },
        (error: unknown) => {
          // The SDK checks the answer: a root that is no file:// URI fails the whole list, with its schema's report.
          const why = Array.isArray((error as { issues?: unknown } | undefined)?.issues) ? "its answer is not a list of file:// URIs" : clip((error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "");
          log(`could not list the client's roots (${why}); the project root stays ${root}.`);
        },
      );
    };
    if (server.server.getClientCapabilities()?.roots?.listChanged === true) {
      server.server.setNotificationHandler(RootsListChangedNotificationSchema, update);
    }
    update();
  };
  const closed = server.server.onclose;
  server.server.onclose = () => {
    closed?.();
    void checker.close();
  };
  return server;
}

/**
 * The project root the client's roots give: the first that is a folder on this machine
 * (`file:///path`, or `file://localhost/path`). A root on another host (`file://host/share`), a
 * URI that is not a file URL or does not decode, or a folder that is not there is passed over;
 * none usable is a problem to say, in a sentence. No roots at all: undefined.
 */
export function projectRoot(uris: readonly string[]): string | { readonly problem: string } | undefined {
  if (uris.length === 0) return undefined;
  for (const uri of uris) {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      continue;
    }
    if (url.protocol !== "file:" || (url.hostname !== "" && url.hostname !== "localhost")) continue;
    let folder: string;
    try {
      folder = fileURLToPath(url);
    } catch {
      continue;
    }
    try {
      if (statSync(folder).isDirectory()) return folder;
    } catch {
      continue;
    }
  }
  return { problem: `none of the client's roots is a folder on this machine (${clip(uris.map((uri) => JSON.stringify(uri)).join(", "))})` };
}

/**
 * What the server checks of a request before the SDK sees it: a tools/call names one of the
 * tools and gives only the arguments that tool takes (-32602 otherwise, with the names it
 * takes). The SDK would answer an unknown tool as a tool error, and a `constructor` argument
 * with -32603.
 */
export function screenRequest(method: string, params: Readonly<Record<string, unknown>> | undefined): Refusal | undefined {
  if (method !== "tools/call" || params === undefined) return undefined;
  const name = params.name;
  if (typeof name !== "string") return { code: ErrorCode.InvalidParams, message: 'tools/call needs "name", the tool to call, as a string.' };
  if (!(TOOLS as readonly string[]).includes(name)) return { code: ErrorCode.InvalidParams, message: `Unknown tool "${clip(name, 100)}"; the tools are ${TOOLS.join(", ")}.` };
  const args = params.arguments;
  if (args === undefined) return undefined;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return { code: ErrorCode.InvalidParams, message: `The arguments of ${name} must be an object.` };
  const takes = Object.keys(INPUTS[name as ToolName]);
  const unknown = Object.keys(args).find((key) => !takes.includes(key));
  if (unknown === undefined) return undefined;
  return {
    code: ErrorCode.InvalidParams,
    message: `${name} takes no argument "${clip(unknown, 100)}"; ${takes.length === 0 ? "it takes none" : `its arguments are ${takes.join(", ")}`}.`,
  };
}
