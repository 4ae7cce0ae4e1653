import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CONFIG_FILES, ReturnlintError } from "@returnlint/core";
import { parseCommandLine } from "../args.js";
import type { CommandIo } from "./io.js";

export const INIT_HELP = `Usage: returnlint init [--preset v5|v7|metadata-file]
       returnlint init claude|opencode   (set up a host: "returnlint init claude --help")

Writes returnlint.config.yaml in the current directory: the preset for the
format your subagents return, and the rules and per-command sections to start
from, each explained in a comment. It never overwrites a config: if one exists
(returnlint.config.* or a "returnlint" key in package.json), it says where and
changes nothing.

Options:
  --preset NAME        v5 or v7 (console JSON returns) or metadata-file
                       (specs/{N}_{SLUG}/.return-meta.json files)
  -h, --help           show this help

Without --preset it asks on a terminal; elsewhere it asks nothing and picks
metadata-file when specs/ holds .return-meta.json files, v7 otherwise.

Exit codes: 0 written, 2 a config exists, or usage error.
`;

const OPTIONS = {
  preset: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const FILE = "returnlint.config.yaml";

const PRESETS = {
  v5: "console JSON returns with session_id at the top level (v5 command files)",
  v7: "console JSON returns with metadata.session_id and the delegation fields (v7 command files)",
  "metadata-file": "specs/{N}_{SLUG}/.return-meta.json files, with contextual statuses",
} as const;

type PresetName = keyof typeof PRESETS;

export async function init(argv: readonly string[], io: CommandIo): Promise<number> {
  // `init claude` and `init opencode` set up a host: a command of their own.
  if (argv[0] === "claude" || argv[0] === "opencode") return (await import("./init-hosts.js")).initHost(argv, io);
  const { values, positionals } = parseCommandLine("init", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(INIT_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new ReturnlintError("USAGE", `returnlint init takes no arguments; received "${positionals.join(" ")}". It writes ${FILE} in the current directory.`);
  if (values.preset !== undefined && !isPreset(values.preset)) {
    throw new ReturnlintError("USAGE", `--preset must be v5, v7 or metadata-file; received "${values.preset}".`);
  }
  const existing = existingConfig(io.cwd);
  if (existing !== undefined) {
    io.stderr(`returnlint: ${existing} already configures returnlint here; init changes nothing. Edit it, or remove it to start over.\n`);
    return 2;
  }

  let preset: PresetName;
  let why: string;
  if (values.preset !== undefined && isPreset(values.preset)) {
    preset = values.preset;
    why = "--preset";
  } else {
    const detected = detect(io.cwd);
    preset = io.stdin.isTTY && io.stderrIsTTY === true ? await ask(io, detected.preset) : detected.preset;
    why = preset === detected.preset ? detected.why : "your answer";
  }

  const file = path.join(io.cwd, FILE);
  try {
    // "wx": should a config appear meanwhile, it stays as it is.
    writeFileSync(file, template(preset), { flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReturnlintError("USAGE", code === "EEXIST" ? `${FILE} appeared while init ran; init changes nothing.` : `Cannot write ${file}: ${String(code ?? error)}.`);
  }
  io.stdout(
    `Wrote ${FILE} with the ${preset} preset (${why}).\n` +
      `Next: returnlint check RETURN --command research   (or: returnlint print-config --command research)\n`,
  );
  return 0;
}

function isPreset(name: string): name is PresetName {
  return Object.hasOwn(PRESETS, name);
}

function existingConfig(cwd: string): string | undefined {
  const file = CONFIG_FILES.find((name) => existsSync(path.join(cwd, name)));
  if (file !== undefined) return file;
  try {
    const manifest = JSON.parse(readFileSync(path.join(cwd, "package.json"), "utf8")) as unknown;
    if (typeof manifest === "object" && manifest !== null && "returnlint" in manifest) return 'package.json ("returnlint" key)';
  } catch {
    // No package.json, or not JSON: nothing configured there.
  }
  return undefined;
}

/** metadata-file when the project already has metadata files; v7, the seeds' current console format, otherwise. */
function detect(cwd: string): { preset: PresetName; why: string } {
  const specs = path.join(cwd, "specs");
  let folders: string[];
  try {
    folders = readdirSync(specs);
  } catch {
    return { preset: "v7", why: "no specs/ folder here: console returns" };
  }
  const withMetadata = folders.find((folder) => existsSync(path.join(specs, folder, ".return-meta.json")));
  return withMetadata === undefined
    ? { preset: "v7", why: "no .return-meta.json under specs/: console returns" }
    : { preset: "metadata-file", why: `found specs/${withMetadata}/.return-meta.json` };
}

async function ask(io: CommandIo, suggested: PresetName): Promise<PresetName> {
  const names = Object.keys(PRESETS) as PresetName[];
  io.stderr(`What do your subagents return?\n${names.map((name, index) => `  ${String(index + 1)}. ${name}: ${PRESETS[name]}`).join("\n")}\n`);
  const { createInterface } = await import("node:readline/promises");
  const prompt = createInterface({ input: io.stdin, terminal: false });
  try {
    for (;;) {
      io.stderr(`Choose 1-${String(names.length)} [${String(names.indexOf(suggested) + 1)}]: `);
      const answer = (await prompt.question("")).trim();
      if (answer === "") return suggested;
      const chosen = names[Number(answer) - 1] ?? names.find((name) => name === answer);
      if (chosen !== undefined) return chosen;
    }
  } finally {
    prompt.close();
  }
}

function template(preset: PresetName): string {
  return `# returnlint configuration: https://github.com/returnlint/returnlint#configuration
# Written by "returnlint init". Check a return with:
#   returnlint check RETURN --command research
# and see what a command runs with:
#   returnlint print-config --command research

# The format your subagents return, for every command not listed below:
#   v5             ${PRESETS.v5}
#   v7             ${PRESETS.v7}
#   metadata-file  ${PRESETS["metadata-file"]}
#   auto           detect the format of each return
preset: ${preset}

# Rules over the preset, for every command. A rule is off, warn or error, or
# [severity, { options }]. "returnlint rules" lists every rule with the severity
# each preset gives it; "returnlint explain RULE" documents one and its options.
rules:
  summary-length: [warn, { maxChars: 400 }]

# Per orchestrator command: a preset and rules of its own, over the ones above.
# The command is what "returnlint check --command NAME" names; research wants
# "researched", plan and revise "planned", implement "implemented" from the
# contextual statuses (the metadata-file preset).
commands:
  research: {}
  plan: {}
  revise: {}
  implement: {}
`;
}
