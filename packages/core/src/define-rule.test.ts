import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { defineRule } from "./define-rule.js";
import { docsUrl } from "./docs.js";
import type { AnyRule } from "./types.js";

// The fixtures are outside src/ (and ignored by ESLint), so that the repository's own typecheck
// never sees the misspelt one; here they are compiled with the repository's compiler options.
const FIXTURES = fileURLToPath(new URL("../type-fixtures/", import.meta.url));
const BASE_CONFIG = fileURLToPath(new URL("../../../tsconfig.base.json", import.meta.url));
const FIXTURE_NAMES = ["misspelt-message-id.ts", "declared-message-ids.ts"];

/** Each fixture's compiler diagnostics, as `line: message`; one program for all, as compiling is slow. */
function compileFixtures(): Map<string, string[]> {
  const { config } = ts.readConfigFile(BASE_CONFIG, (file) => ts.sys.readFile(file)) as { config: unknown };
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(BASE_CONFIG));
  const files = FIXTURE_NAMES.map((name) => path.join(FIXTURES, name));
  const program = ts.createProgram(files, { ...options, noEmit: true });
  return new Map(
    files.map((file, index) => {
      const source = program.getSourceFile(file);
      if (source === undefined) throw new Error(`${file} was not compiled`);
      const lines = ts.getPreEmitDiagnostics(program, source).map((diagnostic) => {
        const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
        return `${String(line)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
      });
      return [FIXTURE_NAMES[index] ?? file, lines];
    }),
  );
}

/** The 1-based line of the fixture that holds `text`. */
function lineOf(name: string, text: string): number {
  return readFileSync(path.join(FIXTURES, name), "utf8").split("\n").findIndex((line) => line.includes(text)) + 1;
}

describe("defineRule's message ids, as TypeScript checks a rule module", () => {
  let diagnostics = new Map<string, string[]>();
  beforeAll(() => {
    diagnostics = compileFixtures();
  }, 60_000);

  it("a check that reports a messageId its meta.messages lacks does not compile, and the error names the id", () => {
    const line = lineOf("misspelt-message-id.ts", '"missingFeild"');
    expect(diagnostics.get("misspelt-message-id.ts")).toEqual([
      `${String(line)}: Type '"missingFeild"' is not assignable to type '"present" | "missingField"'. Did you mean '"missingField"'?`,
    ]);
  });

  it("a rule that reports only declared ids, through a helper too, compiles without a diagnostic", () => {
    expect(diagnostics.get("declared-message-ids.ts")).toEqual([]);
  });
});

describe("defineRule at run time", () => {
  const rule = {
    id: "summary-present",
    meta: { description: "The return has a summary.", schema: { type: "object" }, defaultOptions: {}, messages: { missing: { text: "No summary" } } },
    check() {},
  };

  it("given how docs URLs are made, fills meta.docs from the id and keeps the rest of the rule", () => {
    const defined = defineRule(docsUrl)(rule);
    expect(defined.meta.docs).toBe("https://github.com/returnlint/returnlint/blob/main/packages/rule-summary-present/README.md");
    expect(defined).toMatchObject({ ...rule, meta: rule.meta });
  });

  it("without it, returns the rule as written (its own meta.docs)", () => {
    const own = { ...rule, meta: { ...rule.meta, docs: "https://example.com/summary-present" } };
    expect(defineRule()(own)).toBe(own);
  });

  it("called with the rule itself, as plain JavaScript rules do, returns it unchanged", () => {
    const plain = { ...rule, meta: { ...rule.meta, docs: "https://example.com/summary-present" } } as AnyRule;
    expect(defineRule(plain)).toBe(plain);
  });
});
