import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ARCHIVE_DIR, CONFIG_FILES, CONTEXTUAL_SUCCESS, EXIT, HANDOFF_FILE, loadContract, MAX_CONFIG_BYTES, METADATA_FILE, RETURN_FILE_MENTION, RETURN_FILE_NAMES, ReturnlintError, SPECS_DIR, formatOfFileName, gitEnvironment, isReturnlintError, readRegularFile } from "@returnlint/core";
import { parseCommandLine } from "../args.js";
import type { CommandIo } from "./io.js";
import { HOSTS } from "@returnlint/hooks";
import { agentDefinitions, definitionFolder, OPENCODE_AGENT_DEFINITIONS } from "./init-settings.js";

export const INIT_HELP = `Usage: returnlint init [--preset NAME] [--command NAME=PRESET …]
        returnlint init --contract FILE   (your own return's JSON Schema)
        returnlint init HOST   (set up a host: claude, codex, copilot, cursor,
                                gemini or opencode; "returnlint init claude --help")

Writes returnlint.config.yaml in the current directory: the preset for the
format your subagents return, per-command presets when commands differ, and the
rules to start from, each explained in a comment, with a $schema line so that
editors complete rule ids and options. It never overwrites a config: if one
exists (returnlint.config.* or a "returnlint" key in package.json), it says
where and changes nothing.

Options:
  --preset NAME           v5 or v7 (console JSON returns), metadata-file
                          (specs/{N}_{SLUG}/.return-meta.json files), handoff
                          (specs/{NNN}_{SLUG}/.orchestrator-handoff.json files),
                          multi-task (specs/.return-meta-multi*.json, a batch's
                          return), or auto (detect the format of each return)
  --command NAME=PRESET   a preset of its own for one command, e.g.
                          --command research=metadata-file; repeat it, or give
                          several at once: research=metadata-file,plan=v7
  --contract FILE         a JSON Schema (draft 2020-12) of what your subagents
                          return, its claims marked with x-returnlint
                          annotations: the config checks every command's
                          returns against it instead of a preset
                          (docs/contracts.md); init checks it first
  -h, --help              show this help

Without --preset it asks on a terminal (Enter takes the suggestion; Ctrl-D
stops and writes nothing); elsewhere it asks nothing and picks auto when specs/
(specs/archive/ and specs/.orchestration/ included) holds return files:
.return-meta.json, .orchestrator-handoff.json or handoffs/*.json in a task
folder, .return-meta-multi*.json; or, when none is written yet, when an agent's
definition (.claude/agents/, and the other hosts' folders) shows one: a return
file's name, or a JSON return whose status is researched, planned or
implemented. Under auto each return is checked in the format its file's name
says, else the one its fields say, so that one config serves check, scan,
audit and the hook. It picks v7 otherwise.

Exit codes: 0 written, 2 a config exists, init was stopped, or usage error.
`;

const OPTIONS = {
  preset: { type: "string" },
  contract: { type: "string" },
  command: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

const FILE = "returnlint.config.yaml";

const PRESETS = {
  v5: "console JSON returns with session_id at the top level (v5 command files)",
  v7: "console JSON returns with metadata.session_id and the delegation fields (v7 command files)",
  "metadata-file": "specs/{N}_{SLUG}/.return-meta.json files, with contextual statuses",
  auto: "a mix: detect the format of each return",
  handoff: "specs/{NNN}_{SLUG}/.orchestrator-handoff.json files, an orchestrated implementation's wrap-up",
  "multi-task": "specs/.return-meta-multi*.json files, the return an orchestrator writes when it closes a batch of tasks",
} as const;

type PresetName = keyof typeof PRESETS;

/** The orchestrator commands returnlint knows, in the order the config lists them. */
const COMMANDS = ["research", "plan", "revise", "implement"] as const;

/** Where editors find the schema: the installed package's copy when there is one, else the published one. */
const SCHEMA_CANDIDATES = ["node_modules/returnlint/dist/config.schema.json", "node_modules/@returnlint/core/config.schema.json"] as const;
const SCHEMA_URL = "https://unpkg.com/returnlint/dist/config.schema.json";

/** The answer to a prompt that was closed (Ctrl-D, end of input) instead of answered. */
class Stopped extends Error {}

export async function init(argv: readonly string[], io: CommandIo): Promise<number> {
  // `init HOST` (claude, opencode, …) sets up a host: a command of its own, which names the hosts it knows.
  if (argv[0] !== undefined && !argv[0].startsWith("-")) return (await import("./init-hosts.js")).initHost(argv, io);
  const { values, positionals } = parseCommandLine("init", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(INIT_HELP);
    return EXIT.passed;
  }
  if (positionals.length > 0) throw new ReturnlintError("USAGE", `returnlint init takes no arguments; received "${positionals.join(" ")}". It writes ${FILE} in the current directory.`);
  if (values.preset !== undefined && !isPreset(values.preset)) {
    throw new ReturnlintError("USAGE", `--preset must be v5, v7, metadata-file, handoff, multi-task or auto; received "${values.preset}".`);
  }
  const given = parseCommandPresets((values.command ?? []).join(","), "--command");
  const existing = existingConfig(io.cwd);
  if (existing !== undefined) {
    io.stderr(`returnlint: ${existing} already configures returnlint here; init changes nothing. Edit it, or remove it to start over.\n`);
    return EXIT.error;
  }
  if (values.contract !== undefined) {
    if (values.preset !== undefined || values.command !== undefined) throw new ReturnlintError("USAGE", "--contract takes the place of a preset: give --contract alone, or --preset and --command.");
    return initContract(values.contract, io);
  }

  let preset: PresetName;
  let perCommand = given;
  let why: string;
  const interactive = io.stdin.isTTY && io.stderrIsTTY === true;
  if (values.preset !== undefined && isPreset(values.preset)) {
    preset = values.preset;
    why = "--preset";
  } else {
    const detected = detect(io.cwd);
    preset = detected.preset;
    if (interactive) {
      const { prompt, close } = await Prompt.open(io);
      try {
        preset = await askPreset(prompt, io, detected.preset);
        if (values.command === undefined) perCommand = await askCommands(prompt, io);
      } catch (error) {
        if (!(error instanceof Stopped)) throw error;
        io.stderr("\nreturnlint: init stopped before an answer (end of input); nothing was written.\n");
        return EXIT.error;
      } finally {
        close();
      }
    }
    why = preset === detected.preset ? detected.why : "your answer";
  }

  writeConfig(io.cwd, template(preset, perCommand, schemaFor(io.cwd)));
  const mix = Object.entries(perCommand).map(([command, chosen]) => `${command}: ${chosen}`);
  io.stdout(
    `Wrote ${FILE} with the ${preset} preset (${why})${mix.length === 0 ? "" : `, and ${mix.join(", ")}`}.\n` +
      `Next: returnlint check RETURN --command research   (or: returnlint print-config --command research)\n`,
  );
  return EXIT.passed;
}

/** `init --contract FILE`: a config that checks every command's returns against FILE, once FILE is known to be a contract. */
async function initContract(given: string, io: CommandIo): Promise<number> {
  const relative = path.relative(io.cwd, path.resolve(io.cwd, given)).split(path.sep).join("/");
  const contract = relative.startsWith("../") || path.isAbsolute(relative) ? relative : `./${relative}`;
  const { problems } = await loadContract(contract, io.cwd);
  if (problems.length > 0) throw new ReturnlintError("CONFIG_INVALID", `${contract} is no contract returnlint can check with; init wrote nothing:`, problems);
  writeConfig(io.cwd, contractTemplate(contract, schemaFor(io.cwd)));
  io.stdout(`Wrote ${FILE} with the contract ${contract}.\nNext: returnlint check RETURN   (or: returnlint print-config; returnlint schema prints the schema for your host)\n`);
  return EXIT.passed;
}

function writeConfig(cwd: string, text: string): void {
  const file = path.join(cwd, FILE);
  try {
    // "wx": should a config appear meanwhile, it stays as it is.
    writeFileSync(file, text, { flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReturnlintError("USAGE", code === "EEXIST" ? `${FILE} appeared while init ran; init changes nothing.` : `Cannot write ${file}: ${String(code ?? error)}.`);
  }
}

function isPreset(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name);
}

/** `research=metadata-file,plan=v7`: a preset per command. */
function parseCommandPresets(text: string, where: string): Record<string, PresetName> {
  const chosen: Record<string, PresetName> = {};
  for (const pair of text.split(/[\s,]+/).filter((part) => part !== "")) {
    const match = /^([\w.-]+)=(.+)$/.exec(pair);
    const preset = match?.[2];
    if (match === null || preset === undefined || !isPreset(preset)) {
      throw new ReturnlintError("USAGE", `${where} takes NAME=PRESET, the preset being v5, v7, metadata-file, handoff, multi-task or auto; received "${pair}".`);
    }
    chosen[match[1] ?? ""] = preset;
  }
  return chosen;
}

function existingConfig(cwd: string): string | undefined {
  const file = CONFIG_FILES.find((name) => existsSync(path.join(cwd, name)));
  if (file !== undefined) return file;
  try {
    const manifest = JSON.parse(readRegularFile(path.join(cwd, "package.json"), { maxBytes: MAX_CONFIG_BYTES }).bytes.toString("utf8")) as unknown;
    if (typeof manifest === "object" && manifest !== null && "returnlint" in manifest) return 'package.json ("returnlint" key)';
  } catch {
    // No package.json, not JSON, or no regular file (a FIFO is never opened for reading): nothing configured there.
  }
  return undefined;
}

/** What in an agent's definition shows a return that is not v7's: a return file's name, or a JSON status of a command's own success (`"status": "researched`). */
const NOT_V7 = new RegExp(`${RETURN_FILE_MENTION}|${String.raw`"status"\s*:\s*"`}(?:${CONTEXTUAL_SUCCESS.join("|")})`);

/**
 * auto, when no return is written yet but an agent's definition shows one that v7 would refuse:
 * a return file's name, or a console return whose status is its command's own (researched,
 * planned, implemented), which v7's status list has not. `before` says what the tree lacks.
 */
function shownByAgents(cwd: string, before: string): { preset: PresetName; why: string } | undefined {
  // Every host's folder of agents, once: the hooks' adapters' and OpenCode's.
  const templates = new Set([...[...HOSTS.values()].flatMap((host) => host.definitionFiles), ...OPENCODE_AGENT_DEFINITIONS]);
  for (const [dir, suffix] of [...templates].map(definitionFolder)) {
    const shown = agentDefinitions(cwd, dir, suffix, () => undefined).find((agent) => agent.text !== undefined && NOT_V7.test(agent.text));
    if (shown !== undefined) {
      const what = NOT_V7.exec(shown.text ?? "")?.[0] ?? "";
      return { preset: "auto", why: `${before}, but the agent ${shown.name} (${dir}/) returns ${what.startsWith('"') ? `${what}…` : what}: each return is checked in the format its file's name, else its fields, say` };
    }
  }
  return undefined;
}

/**
 * auto when specs/ holds return files of any kind (archived tasks in specs/archive/ count): a
 * project that writes metadata files, handoffs or multi-task returns has its console returns
 * beside them (the hook, standard input), and under auto each return is checked in the format its
 * file's name says, else the one its fields say, so that one config serves check, scan, audit and
 * the hook; auto too when the tree holds none but the history has some (what `audit` reads). v7,
 * the current console format, otherwise.
 */
function detect(cwd: string): { preset: PresetName; why: string } {
  const specs = path.join(cwd, SPECS_DIR);
  let folders: string[];
  try {
    folders = readdirSync(specs).sort();
  } catch {
    return shownByAgents(cwd, "no specs/ folder here") ?? { preset: "v7", why: "no specs/ folder here: console returns" };
  }
  const batch = [...folders.map((name) => `specs/${name}`), ...listed(path.join(specs, ".orchestration")).map((name) => `specs/.orchestration/${name}`)]
    .sort()
    .find((file) => formatOfFileName(path.basename(file)) === "multi-task");
  if (folders.includes(ARCHIVE_DIR)) folders.push(...listed(path.join(specs, ARCHIVE_DIR)).sort().map((folder) => `${ARCHIVE_DIR}/${folder}`));
  const first = (name: string) => folders.find((folder) => existsSync(path.join(specs, folder, name)));
  const withMetadata = first(METADATA_FILE);
  // Handoffs are written as the task folder's .orchestrator-handoff.json, or as JSON files in its handoffs/ folder.
  const withHandoff = first(HANDOFF_FILE);
  const handoffsFolder = withHandoff === undefined ? folders.find((folder) => listed(path.join(specs, folder, "handoffs")).some((name) => name.endsWith(".json"))) : undefined;
  const found = [
    batch,
    withMetadata === undefined ? undefined : `specs/${withMetadata}/${METADATA_FILE}`,
    withHandoff === undefined ? undefined : `specs/${withHandoff}/${HANDOFF_FILE}`,
    handoffsFolder === undefined ? undefined : `specs/${handoffsFolder}/handoffs/*.json`,
  ].filter((file) => file !== undefined);
  if (found.length === 0) {
    const committed = lastCommittedReturn(cwd);
    if (committed !== undefined) return { preset: "auto", why: `no return files under specs/ now, but the history has them (the last written in ${committed}): each return is checked in the format its file's name, else its fields, say` };
    return shownByAgents(cwd, "no return files under specs/") ?? { preset: "v7", why: "no return files under specs/: console returns" };
  }
  return { preset: "auto", why: `found ${andList(found)}: each return is checked in the format its file's name, else its fields, say` };
}

/** The return files' names below specs/, at any depth, as git pathspecs. */
const RETURN_FILE_PATHSPECS = RETURN_FILE_NAMES.map((name) => `:(glob)${SPECS_DIR}/**/${name}`);

/**
 * The last commit that wrote a return file below specs/, "abc1234 of 2026-03-23", when cwd is in a
 * git repository whose tree holds none today (the tasks were cleaned up, the agents moved on): its
 * history is what `audit` reads with the config init writes. Undefined without git or history.
 */
function lastCommittedReturn(cwd: string): string | undefined {
  const run = spawnSync("git", ["log", "-1", "--diff-filter=AM", "--format=%h of %as", "--", ...RETURN_FILE_PATHSPECS], { cwd, env: gitEnvironment(), encoding: "utf8", timeout: 30_000, stdio: ["ignore", "pipe", "ignore"] });
  const line = run.status === 0 ? run.stdout.trim() : "";
  return line === "" ? undefined : line;
}

function andList(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1) ?? ""}`;
}

function listed(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function schemaFor(cwd: string): string {
  const local = SCHEMA_CANDIDATES.find((candidate) => existsSync(path.join(cwd, candidate)));
  return local === undefined ? SCHEMA_URL : `./${local}`;
}

/** Lines typed at the terminal, one at a time; Ctrl-D (end of input) before Enter stops init. */
class Prompt {
  private readonly lines: string[] = [];
  private closed = false;
  private waiting: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;

  private constructor(private readonly io: CommandIo) {}

  static async open(io: CommandIo): Promise<{ prompt: Prompt; close: () => void }> {
    const { createInterface } = await import("node:readline");
    const prompt = new Prompt(io);
    const reader = createInterface({ input: io.stdin, terminal: false });
    reader.on("line", (line) => {
      const waiting = prompt.waiting;
      prompt.waiting = undefined;
      if (waiting === undefined) prompt.lines.push(line);
      else waiting.resolve(line);
    });
    reader.on("close", () => {
      prompt.closed = true;
      prompt.waiting?.reject(new Stopped());
      prompt.waiting = undefined;
    });
    return {
      prompt,
      close: () => {
        reader.close();
      },
    };
  }

  ask(question: string): Promise<string> {
    this.io.stderr(question);
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.closed) return Promise.reject(new Stopped());
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }
}

async function askPreset(prompt: Prompt, io: CommandIo, suggested: PresetName): Promise<PresetName> {
  const names = Object.keys(PRESETS) as PresetName[];
  io.stderr(`What do your subagents return?\n${names.map((name, index) => `  ${String(index + 1)}. ${name}: ${PRESETS[name]}`).join("\n")}\n`);
  for (;;) {
    const answer = (await prompt.ask(`Choose 1-${String(names.length)} [${String(names.indexOf(suggested) + 1)}]: `)).trim();
    if (answer === "") return suggested;
    const chosen = names[Number(answer) - 1] ?? names.find((name) => name === answer);
    if (chosen !== undefined) return chosen;
  }
}

async function askCommands(prompt: Prompt, io: CommandIo): Promise<Record<string, PresetName>> {
  io.stderr("Does a command return another format? For example: research=metadata-file implement=metadata-file\n");
  for (;;) {
    const answer = await prompt.ask("Per-command presets [none]: ");
    try {
      return parseCommandPresets(answer, "A per-command preset");
    } catch (error) {
      if (!isReturnlintError(error)) throw error;
      io.stderr(`${error.message}\n`);
    }
  }
}

function template(preset: PresetName, perCommand: Readonly<Record<string, PresetName>>, schema: string): string {
  const commands = [...new Set([...COMMANDS, ...Object.keys(perCommand)])];
  const entry = (command: string) => {
    const chosen = perCommand[command];
    return `  ${command}: ${chosen === undefined ? "{}" : `{ preset: ${chosen} }`}`;
  };
  return `# yaml-language-server: $schema=${schema}
# returnlint configuration: https://github.com/returnlint/returnlint#configuration
# Written by "returnlint init". Check a return with:
#   returnlint check RETURN --command research
# and see what a command runs with:
#   returnlint print-config --command research

# The format your subagents return, for every command not listed below:
#   v5             ${PRESETS.v5}
#   v7             ${PRESETS.v7}
#   metadata-file  ${PRESETS["metadata-file"]}
#   handoff        ${PRESETS.handoff}
#   multi-task     ${PRESETS["multi-task"]}
#   auto           detect the format of each return, by its file's name, else
#                  by its fields: .orchestrator-handoff.json, or continuation_*
#                  or blockers beside phases_total, is handoff;
#                  .return-meta-multi*.json, or metadata.multi_task_mode true,
#                  is multi-task; .return-meta.json, a contextual status, or
#                  completion_data, started_at, partial_progress is
#                  metadata-file; a top-level session_id is v5; anything else v7
preset: ${preset}

# Rules over the preset, for every command and every format (each preset already
# runs the rules its format needs: a rule named here runs on every return). A
# rule is off, warn or error, or [severity, { options }], e.g.
#   summary-length: [warn, { maxChars: 600 }]
# "returnlint rules" lists every rule with the severity each preset gives it;
# "returnlint explain RULE" documents one and its options.
rules: {}

# Per return format: rules over its preset, for the returns in that format
# only. For example, in a Lean project whose every handoff lists its "sorry"
# placeholders (outside skeleton mode the field is not asked for):
#   handoff:
#     rules:
#       handoff: [error, { sorryInventory: "warn" }]
formats: {}

# Per orchestrator command: a preset and rules of its own, over the ones above.
# The command is what "returnlint check --command NAME" names; research wants
# "researched", plan and revise "planned", implement "implemented" from the
# contextual statuses (the metadata-file preset). A command of your own is
# known to returnlint once it is listed here.
commands:
${commands.map(entry).join("\n")}
`;
}

function contractTemplate(contract: string, schema: string): string {
  return `# yaml-language-server: $schema=${schema}
# returnlint configuration: https://github.com/returnlint/returnlint#configuration
# Written by "returnlint init --contract". Check a return with:
#   returnlint check RETURN
# see what the contract turns on with:
#   returnlint print-config
# and print the same schema, without returnlint's annotations, for your host's
# structured output with:
#   returnlint schema

# The JSON Schema (draft 2020-12) your subagents' returns follow, for every
# command not listed below. Its "x-returnlint" annotations say where the claims
# are: "artifact" (a file the return says it wrote: it must exist inside the
# project, non-empty), "session-id" (compared with --session-id), and
# "x-returnlint-success" at its root says when the claims count.
contract: ${contract}

# Rules over the contract's, for every command, e.g. evidence that this run
# wrote the files it claims:
#   artifact-evidence: error
# "returnlint rules" lists every rule; "returnlint explain RULE" documents one.
rules: {}

# Per command: a contract (or a preset) and rules of its own, e.g.
#   review:
#     contract: ./contracts/review-return.schema.json
commands: {}
`;
}
