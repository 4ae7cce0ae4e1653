import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BUILTIN_RULES } from "@returnlint/api";
import { BIN, STACK_FRAME, metadata, project, returnlint } from "./helpers.js";

const NO_TODO = `export default {
  id: "no-todo",
  meta: {
    description: "The summary has no TODO.",
    docs: "https://example.com/no-todo",
    schema: { type: "object", properties: { word: { type: "string", description: "The word to look for." } }, additionalProperties: false },
    defaultOptions: { word: "TODO" },
    messages: { found: { text: "Summary says {word}" } },
  },
  check(context) {
    if (String(context.value.summary).includes(context.options.word)) context.report({ messageId: "found", data: { word: context.options.word } });
  },
};
`;

const research = {
  status: "researched",
  summary: "Researched it.",
  artifacts: [{ type: "report", path: "specs/1_a/reports/research-001.md", summary: "Report" }],
  metadata: metadata("researcher"),
};

describe("returnlint rules", () => {
  it("prints the built-in rules with each preset's severity and docs, and a configured custom rule with its source", () => {
    const root = project({ "rules/no-todo.mjs": NO_TODO, "returnlint.config.json": { preset: "v7", rules: { "./rules/no-todo.mjs": "warn" } } });
    const run = returnlint(["rules"], { cwd: root });
    expect(run.status).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^rule +v5 +v7 +metadata-file +handoff +multi-task +strict +config +description$/);
    expect(lines.find((line) => line.startsWith("summary-length "))).toMatch(/^summary-length +warn +warn +off +off +off +warn +- +The summary stays within/);
    expect(run.stdout).toContain("https://github.com/returnlint/returnlint/blob/main/packages/rule-artifacts/README.md");
    // Off in every preset, but on (warn) in this config: the config column says so.
    expect(lines.find((line) => line.startsWith("./rules/no-todo.mjs "))).toMatch(/off +off +off +off +off +warn +The summary has no TODO\.$/);
    expect(run.stdout).toContain(`from ${path.join(root, "rules", "no-todo.mjs")}`);
    expect(run.stdout).toContain(`${String(BUILTIN_RULES.size + 1)} rules (${String(BUILTIN_RULES.size)} built in, 1 from the config).`);
  });

  it("shows a custom rule enabled only for some commands, and one without docs or description, never as undefined", () => {
    const bare = `export default { id: "bare", meta: { schema: { type: "object" }, defaultOptions: {}, messages: { found: { text: "found" } } }, check() {} };\n`;
    const root = project({
      "rules/no-todo.mjs": NO_TODO,
      "rules/bare.mjs": bare,
      "returnlint.config.json": { rules: { "summary-length": "error" }, commands: { implement: { rules: { "./rules/no-todo.mjs": "error" } }, plan: { rules: { "./rules/bare.mjs": "warn", "./rules/no-todo.mjs": "off" } } } },
    });
    const run = returnlint(["rules"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain("undefined");
    const lines = run.stdout.split("\n");
    expect(lines.find((line) => line.startsWith("./rules/no-todo.mjs "))).toMatch(/off +off +off +off +off +implement:error, plan:off +The summary has no TODO\.$/);
    expect(lines.find((line) => line.startsWith("./rules/bare.mjs "))).toMatch(/off +off +off +off +off +plan:warn +\(no description in its meta\)$/);
    expect(lines.find((line) => line.startsWith("summary-length "))).toMatch(/^summary-length +warn +warn +off +off +off +warn +error +/);
    const listed = JSON.parse(returnlint(["rules", "-f", "json"], { cwd: root }).stdout) as { id: string; docs: string | null; config?: unknown }[];
    expect(listed.find((rule) => rule.id === "./rules/bare.mjs")).toMatchObject({ docs: null, config: { commands: { plan: "warn" } } });
    const explained = returnlint(["explain", "bare"], { cwd: root });
    expect(explained.stdout).toContain("Docs: (no docs link in its meta)");
    expect(explained.stdout).not.toContain("undefined");
  });

  it("--format json gives one object per rule", () => {
    const root = project({ "rules/no-todo.mjs": NO_TODO, "returnlint.config.json": { rules: { "./rules/no-todo.mjs": "error" } } });
    const listed = JSON.parse(returnlint(["rules", "--format", "json"], { cwd: root }).stdout) as { id: string; builtin: boolean; docs: string; presets: Record<string, string> }[];
    expect(listed.at(-1)).toMatchObject({ id: "./rules/no-todo.mjs", builtin: false, docs: "https://example.com/no-todo", presets: { v5: "off", v7: "off", "metadata-file": "off" } });
    expect(listed.find((rule) => rule.id === "completion-data")?.presets).toEqual({ v5: "error", v7: "error", "metadata-file": "error", handoff: "off", "multi-task": "off", strict: "error" });
  });

  it("a bad --format or an invalid config is exit 2 with a sentence", () => {
    const bad = returnlint(["rules", "--format", "xml"], { cwd: project({}) });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('returnlint: --format must be table or json; received "xml".\n');
    const broken = returnlint(["rules"], { cwd: project({ "returnlint.config.json": { rules: { "status-enun": "error" } } }) });
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain('rules.status-enun: unknown rule "status-enun" (did you mean "status-enum"?)');
    expect(broken.stderr).not.toMatch(STACK_FRAME);
  });
});

describe("returnlint explain", () => {
  it("prints a built-in rule's README", () => {
    const run = returnlint(["explain", "artifacts"], { cwd: project({}) });
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe("# artifacts");
    expect(run.stdout).toContain("Phantom work detected");
  });

  it("describes a custom rule from its meta: description, source, docs, options table and messages", () => {
    const root = project({ "rules/no-todo.mjs": NO_TODO, "returnlint.config.json": { rules: { "./rules/no-todo.mjs": "error" } } });
    for (const name of ["./rules/no-todo.mjs", "no-todo"]) {
      const run = returnlint(["explain", name], { cwd: root });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain("# no-todo\n\nThe summary has no TODO.\n");
      expect(run.stdout).toContain("Docs: https://example.com/no-todo");
      expect(run.stdout).toMatch(/\| `word` \| string \| `"TODO"` \| The word to look for\. \|/);
      expect(run.stdout).toContain("- `found`: Summary says {word}");
    }
  });

  it("an unknown rule is exit 2 with the nearest name; no rule is a usage error", () => {
    const typo = returnlint(["explain", "sesion-id"], { cwd: project({}) });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toBe('returnlint: Unknown rule "sesion-id" (did you mean "session-id"?). "returnlint rules" lists the rules.\n');
    const none = returnlint(["explain"], { cwd: project({}) });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('Name the rule to explain: "returnlint explain artifacts"');
  });
});

describe("returnlint print-config", () => {
  const config = {
    preset: "v7",
    rules: { "summary-length": ["warn", { maxChars: 200 }] },
    commands: { research: { preset: "metadata-file", rules: { "summary-length": "error", "error-details": "off" } } },
  };

  it("prints the preset, format and each rule's severity, merged options and source for one command", () => {
    const root = project({ "returnlint.config.json": config });
    const run = returnlint(["print-config", "--command", "research"], { cwd: root });
    expect(run.status).toBe(0);
    const printed = JSON.parse(run.stdout) as { config: string; command: string; preset: string; format: string; rules: Record<string, { severity: string; options: Record<string, unknown>; source: string }> };
    expect(printed).toMatchObject({ config: path.join(root, "returnlint.config.json"), command: "research", preset: "metadata-file", format: "metadata-file" });
    expect(printed.rules["summary-length"]).toEqual({ severity: "error", options: { maxChars: 200 }, source: "@returnlint/rule-summary-length" });
    expect(printed.rules["error-details"]).toBeUndefined();
    expect(Object.keys(printed.rules)[0]).toBe("json-structure");
  });

  it("a command the config does not list gets the top-level preset and rules, and says so", () => {
    const printed = JSON.parse(returnlint(["print-config", "--command", "plan"], { cwd: project({ "returnlint.config.json": config }) }).stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ preset: "v7", format: "v7", note: "the config has no commands.plan entry: its top-level preset and rules apply" });
    expect((printed.rules as Record<string, unknown>)["summary-length"]).toEqual({ severity: "warn", options: { maxChars: 200 }, source: "@returnlint/rule-summary-length" });
  });

  it("with the auto preset it gives the rules for each format", () => {
    const printed = JSON.parse(returnlint(["print-config"], { cwd: project({}) }).stdout) as { preset: string; formats: Record<string, { format: string; rules: Record<string, { options: Record<string, unknown> }> }> };
    expect(printed.preset).toBe("auto");
    expect(Object.keys(printed.formats)).toEqual(["v5", "v7", "metadata-file", "handoff", "multi-task"]);
    expect(printed.formats.v5?.rules["session-id"]?.options).toEqual({ field: "session_id" });
    expect(printed.formats.v7?.rules["session-id"]?.options).toEqual({ field: "metadata.session_id" });
  });
});

describe("returnlint init", () => {
  it("off a terminal asks nothing: auto when specs/ holds metadata files, and the file it writes loads and checks", () => {
    const root = project({ "specs/1_a/.return-meta.json": research, "specs/1_a/reports/research-001.md": "# Report\n" });
    const run = returnlint(["init"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      "Wrote returnlint.config.yaml with the auto preset (found specs/1_a/.return-meta.json: each return is checked in the format its file's name, else its fields, say).\n" +
        "Next: returnlint check RETURN --command research   (or: returnlint print-config --command research)\n",
    );
    const written = readFileSync(path.join(root, "returnlint.config.yaml"), "utf8");
    expect(written).toMatch(/^preset: auto$/m);
    expect(written.split("\n")[1]).toBe("# returnlint configuration: https://github.com/returnlint/returnlint#configuration");
    const checked = returnlint(["check", "--task", "1", "--command", "research", "--session-id", "sess_1"], { cwd: root });
    expect(checked.stdout).toContain("[INFO] Checking specs/1_a/.return-meta.json (task 1): metadata-file return");
    expect(checked.status).toBe(0);
    expect(JSON.parse(returnlint(["print-config", "--command", "plan"], { cwd: root }).stdout)).toMatchObject({ preset: "auto" });
  });

  it("picks auto when specs/ holds a multi-task return beside the metadata files, which then checks each in its own format", () => {
    for (const file of ["specs/.return-meta-multi.json", "specs/.orchestration/.return-meta-multi-sess_1.json"]) {
      const root = project({
        "specs/1_a/.return-meta.json": research,
        "specs/1_a/reports/research-001.md": "# Report\n",
        [file]: { status: "completed", metadata: { tasks_completed: [1], tasks_failed: [], cycles_used: 1, multi_task_mode: true } },
      });
      const run = returnlint(["init"], { cwd: root });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`with the auto preset (found ${file} and specs/1_a/.return-meta.json: each return is checked in the format its file's name, else its fields, say)`);
      expect(readFileSync(path.join(root, "returnlint.config.yaml"), "utf8")).toMatch(/^preset: auto$/m);
      const scanned = JSON.parse(returnlint(["scan", "--format", "json"], { cwd: root }).stdout) as { source: string; format: string; ok: boolean }[];
      expect(scanned.map((report) => [report.source, report.format, report.ok]).sort()).toEqual([[file, "multi-task", true], ["specs/1_a/.return-meta.json", "metadata-file", true]].sort());
    }
  });

  it("picks v7 for a project without metadata files, and --preset chooses", () => {
    const plain = project({});
    expect(returnlint(["init"], { cwd: plain }).stdout).toContain("with the v7 preset (no specs/ folder here: console returns)");
    const chosen = project({});
    expect(returnlint(["init", "--preset", "v5"], { cwd: chosen }).stdout).toContain("with the v5 preset (--preset)");
    expect(readFileSync(path.join(chosen, "returnlint.config.yaml"), "utf8")).toMatch(/^preset: v5$/m);
  });

  it("never overwrites a config, in any of its forms: exit 2 and the file unchanged", () => {
    for (const [file, content] of [
      ["returnlint.config.json", '{ "preset": "v5" }\n'],
      ["returnlint.config.yaml", "preset: v5\n"],
      ["package.json", '{ "name": "x", "returnlint": { "preset": "v5" } }\n'],
    ] as const) {
      const root = project({ [file]: content });
      const run = returnlint(["init", "--preset", "v7"], { cwd: root });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/already configures returnlint here; init changes nothing/);
      expect(readFileSync(path.join(root, file), "utf8")).toBe(content);
      expect(readdirSync(root)).toEqual([file]);
    }
  });

  it("a package.json without a returnlint key is no config; a bad --preset writes nothing", () => {
    const root = project({ "package.json": '{ "name": "x" }\n' });
    expect(returnlint(["init"], { cwd: root }).status).toBe(0);
    expect(existsSync(path.join(root, "returnlint.config.yaml"))).toBe(true);
    const bad = project({});
    const run = returnlint(["init", "--preset", "v9"], { cwd: bad });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('returnlint: --preset must be v5, v7, metadata-file, handoff, multi-task or auto; received "v9".\n');
    expect(readdirSync(bad)).toEqual([]);
  });
});

describe("returnlint init: what editors and mixed projects need", () => {
  const SESSION = fileURLToPath(new URL("terminal-session.py", import.meta.url));
  const hasPython = spawnSync("python3", ["--version"]).status === 0;

  it("writes a $schema line editors read: the installed schema when there is one, else the published one", () => {
    const plain = project({});
    expect(returnlint(["init"], { cwd: plain }).status).toBe(0);
    expect(readFileSync(path.join(plain, "returnlint.config.yaml"), "utf8").split("\n")[0]).toBe("# yaml-language-server: $schema=https://unpkg.com/returnlint/dist/config.schema.json");
    const installed = project({ "node_modules/returnlint/dist/config.schema.json": "{}" });
    expect(returnlint(["init"], { cwd: installed }).status).toBe(0);
    expect(readFileSync(path.join(installed, "returnlint.config.yaml"), "utf8").split("\n")[0]).toBe("# yaml-language-server: $schema=./node_modules/returnlint/dist/config.schema.json");
  });

  it("--preset auto and a per-command mix, which the config then runs", () => {
    const root = project({ "specs/1_a/.return-meta.json": research, "specs/1_a/reports/research-001.md": "# Report\n" });
    const run = returnlint(["init", "--preset", "auto", "--command", "research=metadata-file", "--command", "implement=v5,review=v7"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe("Wrote returnlint.config.yaml with the auto preset (--preset), and research: metadata-file, implement: v5, review: v7.");
    const written = readFileSync(path.join(root, "returnlint.config.yaml"), "utf8");
    expect(written).toMatch(/^preset: auto$/m);
    expect(written).toContain("commands:\n  research: { preset: metadata-file }\n  plan: {}\n  revise: {}\n  implement: { preset: v5 }\n  review: { preset: v7 }\n");
    expect(JSON.parse(returnlint(["print-config", "--command", "implement"], { cwd: root }).stdout)).toMatchObject({ preset: "v5", format: "v5" });
    // review is a command of this project now: --command accepts it.
    expect(JSON.parse(returnlint(["print-config", "--command", "review"], { cwd: root }).stdout)).toMatchObject({ preset: "v7" });
    expect(returnlint(["check", "--task", "1", "--command", "research"], { cwd: root }).status).toBe(0);
    const bad = returnlint(["init", "--command", "research=v9"], { cwd: project({}) });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('returnlint: --command takes NAME=PRESET, the preset being v5, v7, metadata-file, handoff, multi-task or auto; received "research=v9".\n');
  });

  it.runIf(hasPython)("asks on a terminal: the preset (auto among them), then per-command presets", () => {
    const root = project({});
    const run = spawnSync("python3", [SESSION, root, "4\n\u001eresearch=metadata-file plan=metadata-file\n", "--", process.execPath, BIN, "init"], { encoding: "utf8", timeout: 30_000, env: { ...process.env, NO_COLOR: "1" } });
    expect(run.stdout).toContain("4. auto: a mix: detect the format of each return");
    expect(run.stdout).toContain("Per-command presets [none]: ");
    expect(run.stdout).toContain("Wrote returnlint.config.yaml with the auto preset (your answer), and research: metadata-file, plan: metadata-file.");
    expect(run.stdout).toContain("<<exit 0>>");
    expect(readFileSync(path.join(root, "returnlint.config.yaml"), "utf8")).toContain("  research: { preset: metadata-file }\n  plan: { preset: metadata-file }\n");
  });

  it.runIf(hasPython)("Ctrl-D at the prompt stops with a sentence and exit 2, and writes nothing", () => {
    for (const inputs of ["^D", "3\n\u001e^D"]) {
      const root = project({});
      const run = spawnSync("python3", [SESSION, root, inputs, "--", process.execPath, BIN, "init"], { encoding: "utf8", timeout: 30_000, env: { ...process.env, NO_COLOR: "1" } });
      expect(run.stdout).toContain("returnlint: init stopped before an answer (end of input); nothing was written.");
      expect(run.stdout).toContain("<<exit 2>>");
      expect(readdirSync(root)).toEqual([]);
    }
  });
});

describe("help", () => {
  it("check, scan, hook and print-config help fit an 80-column terminal", () => {
    for (const command of ["check", "scan", "hook", "print-config"]) {
      const wide = returnlint([command, "--help"]).stdout.split("\n").filter((line) => line.length > 80);
      expect(wide, command).toEqual([]);
    }
  });

  it("print-config --help names every format print-config --preset auto gives rules for", () => {
    const help = returnlint(["print-config", "--help"]).stdout.replaceAll(/\s+/g, " ");
    const printed = JSON.parse(returnlint(["print-config", "--preset", "auto"], { cwd: project({}) }).stdout) as { formats: Record<string, unknown> };
    const formats = Object.keys(printed.formats);
    expect(formats).toContain("multi-task");
    expect(help).toContain(`gives them for each of ${formats.slice(0, -1).join(", ")} and ${formats.at(-1) ?? ""}.`);
  });

  it("every command has --help, and the main help lists them", () => {
    const main = returnlint(["--help"]);
    for (const command of ["check", "scan", "hook", "init", "rules", "explain", "print-config"]) {
      expect(main.stdout).toMatch(new RegExp(`^  ${command}\\b`, "m"));
      const help = returnlint([command, "--help"]);
      expect(help.status, command).toBe(0);
      expect(help.stdout, command).toMatch(new RegExp(`^Usage: returnlint ${command}`));
    }
    // A subcommand has its line too, and its usage in its command's help.
    expect(main.stdout).toMatch(/^ {2}audit merge FILE\.\.\. +one report of many repositories' audits/m);
    expect(returnlint(["audit", "--help"]).stdout).toContain("returnlint audit merge FILE...");
  });
});
