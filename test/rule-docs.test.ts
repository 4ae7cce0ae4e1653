import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compileContract, createFileView, parseReturn, runRules, withOptionsTable, type Contract } from "@returnlint/core";
import { tempProject } from "@returnlint/testing";
import { loadBuiltinRules } from "returnlint";

const BUILTIN_RULES = await loadBuiltinRules();

const REPO = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLE = /<!-- example: (pass|fail)(?: ([\w,]+))?((?: \w+=\S+)*) -->\n```json\n([\s\S]*?)\n```/g;
const emptyRoot = tempProject();

/** A contract of the repository's examples, compiled as a config's is. */
async function contractAt(file: string): Promise<Contract> {
  const { contract, problems } = await compileContract(JSON.parse(readFileSync(path.join(REPO, file), "utf8")), file, tempProject());
  if (contract === undefined) throw new Error(problems.join("\n"));
  return contract;
}

describe("rule READMEs", () => {
  for (const [id, { rule }] of BUILTIN_RULES) {
    const readme = readFileSync(path.join(REPO, "packages", `rule-${id}`, "README.md"), "utf8");

    it(`${id}: the options table matches the schema (run \`pnpm docs:rules\` when this fails)`, () => {
      expect(readme).toContain("<!-- options:start");
      expect(withOptionsTable(readme, rule.meta)).toBe(readme);
    });

    const examples = [...readme.matchAll(EXAMPLE)];
    it(`${id}: has a passing and a failing example`, () => {
      expect(examples.some((match) => match[1] === "pass")).toBe(true);
      expect(examples.some((match) => match[1] === "fail")).toBe(true);
    });

    for (const [index, [, verdict, messageIds, attributes, json]] of examples.entries()) {
      it(`${id}: example ${String(index + 1)} ${verdict ?? ""}s${messageIds === undefined ? "" : ` with ${messageIds}`}`, async () => {
        const settings: Partial<Record<string, string>> = Object.fromEntries([...(attributes ?? "").matchAll(/ (\w+)=(\S+)/g)].map((match): [string, string] => [match[1] ?? "", match[2] ?? ""]));
        const text = json ?? "";
        // `marker=PATH`: a file that lies in the project beside the return (postflight-marker's examples).
        const root = settings.marker === undefined ? emptyRoot : tempProject({ [settings.marker]: "{}" });
        // `contract=PATH`: the contract (a JSON Schema in the repository) the return is checked under.
        const contract = settings.contract === undefined ? undefined : await contractAt(settings.contract);
        const report = await runRules({
          ...(contract === undefined ? {} : { contract }),
          text,
          parse: parseReturn(text),
          command: settings.command ?? null,
          format: settings.format === "v5" || settings.format === "metadata-file" ? settings.format : "v7",
          expected: {
            ...(settings.session === undefined ? {} : { sessionId: settings.session }),
            ...(settings.taskType === undefined ? {} : { taskType: settings.taskType }),
            ...(settings.staleAfter === undefined ? {} : { staleAfterSeconds: Number(settings.staleAfter) }),
            ...(settings.now === undefined ? {} : { now: new Date(settings.now) }),
            ...(settings.returnFile === undefined ? {} : { returnFile: settings.returnFile }),
            // `transcript=PATH`: a run's transcript in the repository (the claims rules' examples read the recorded hosts' ones).
            ...(settings.transcript === undefined ? {} : { transcriptPath: path.join(REPO, settings.transcript) }),
          },
          rules: [{ rule, severity: "error", options: { ...(rule.meta.defaultOptions as object), ...(settings.options === undefined ? {} : (JSON.parse(settings.options) as object)) }, source: id }],
          files: createFileView(root),
        });
        const failures = report.results.filter((result) => result.level === "fail").map((result) => result.messageId);
        expect(failures).toEqual(verdict === "pass" ? [] : (messageIds ?? "").split(","));
      });
    }
  }
});
