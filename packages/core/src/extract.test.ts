import { describe, expect, it, vi } from "vitest";
import { extractReturn, type ReturnOrigin } from "./extract.js";

const RETURN = '{ "status": "researched", "summary": "ok" }';
const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\``;
// The task tool's output as OpenCode renders it (packages/opencode/src/tool/task.ts, both generations).
const legacyTask = (result: string) => `task_id: ses_1 (for resuming to continue this task if needed)\n\n<task_result>\n${result}\n</task_result>`;
const taskV2 = (result: string) => `<task id="ses_1" state="completed">\n<task_result>\n${result}\n</task_result>\n</task>`;

const cases: readonly { name: string; input: string; text: string; origin: ReturnOrigin }[] = [
  { name: "bare JSON", input: RETURN, text: RETURN, origin: "bare" },
  { name: "bare JSON with surrounding whitespace", input: `\n  ${RETURN}\n`, text: `\n  ${RETURN}\n`, origin: "bare" },
  { name: "a bare JSON value that is not an object", input: "[1, 2]", text: "[1, 2]", origin: "bare" },
  { name: "broken bare JSON keeps its text for the syntax error", input: '{ "status": ,}', text: '{ "status": ,}', origin: "bare" },
  { name: "bare JSON followed by prose", input: `${RETURN}\nDone.`, text: `${RETURN}\nDone.`, origin: "bare" },
  { name: "a ```json block inside prose", input: `Research done.\n\n${fence("json", RETURN)}\n\nBye.`, text: RETURN, origin: "fenced" },
  { name: "a bare ``` block", input: `Here:\n${fence("", RETURN)}`, text: RETURN, origin: "fenced" },
  { name: "an upper-case JSON info string", input: `Here:\n${fence("JSON", RETURN)}`, text: RETURN, origin: "fenced" },
  { name: "CRLF line ends", input: `Here:\r\n\`\`\`json\r\n${RETURN}\r\n\`\`\`\r\n`, text: RETURN, origin: "fenced" },
  {
    name: "the last block that parses to an object wins",
    input: `${fence("json", '{ "status": "draft" }')}\nthen\n${fence("json", RETURN)}\n${fence("json", "[1]")}`,
    text: RETURN,
    origin: "fenced",
  },
  { name: "a broken last block loses to an earlier good one", input: `${fence("json", RETURN)}\n${fence("json", "{ broken")}`, text: RETURN, origin: "fenced" },
  { name: "only broken ```json blocks: the last, for its syntax error", input: `a\n${fence("json", "{ one")}\nb\n${fence("json", "{ two")}`, text: "{ two", origin: "fenced" },
  { name: "a longer fence holds a shorter one", input: `x\n\`\`\`\`json\n${RETURN}\n\`\`\`\n\`\`\`\``, text: `${RETURN}\n\`\`\``, origin: "fenced" },
  { name: "other languages are not returns", input: `x\n${fence("ts", RETURN)}`, text: `x\n${fence("ts", RETURN)}`, origin: "none" },
  { name: "an unclosed fence is not a block", input: `x\n\`\`\`json\n${RETURN}`, text: `x\n\`\`\`json\n${RETURN}`, origin: "none" },
  { name: "prose with no return", input: "Research completed successfully.", text: "Research completed successfully.", origin: "none" },
  { name: "empty", input: "", text: "", origin: "none" },
  { name: "an OpenCode task result (task_id line)", input: legacyTask(RETURN), text: RETURN, origin: "task_result" },
  { name: "an OpenCode task result (<task> element)", input: taskV2(RETURN), text: RETURN, origin: "task_result" },
  { name: "a fenced return inside a task result", input: legacyTask(`Done.\n${fence("json", RETURN)}`), text: RETURN, origin: "task_result" },
  { name: "prose inside a task result", input: legacyTask("All done, trust me."), text: "All done, trust me.", origin: "task_result" },
  { name: "the last of two task results", input: `${taskV2('{ "a": 1 }')}\n${taskV2(RETURN)}`, text: RETURN, origin: "task_result" },
  { name: "an unclosed task result is not one", input: `<task_result>\n${RETURN}`, text: `<task_result>\n${RETURN}`, origin: "none" },
  { name: "a JSON return that mentions the tag is still bare", input: '{ "summary": "<task_result>x</task_result>" }', text: '{ "summary": "<task_result>x</task_result>" }', origin: "bare" },
];

describe("extractReturn", () => {
  it.each(cases)("$name → $origin", ({ input, text, origin }) => {
    const found = extractReturn(input);
    expect({ text: found.text, origin: found.origin }).toEqual({ text, origin });
    // What was parsed to find the return is handed on, so that it is not parsed again.
    if (found.parsed !== undefined) expect(found.parsed.value).toEqual(JSON.parse(text));
  });

  it("hands on the value it parsed to find a fenced return", () => {
    expect(extractReturn('Done.\n```json\n{ "status": "completed" }\n```\n').parsed).toEqual({ value: { status: "completed" } });
  });

  it("parses only what opens like JSON: the prose around a fenced return and a prose block are never handed to JSON.parse", () => {
    const parse = vi.spyOn(JSON, "parse");
    try {
      const found = extractReturn(`Research complete.\n\n${fence("", "Wrote the report.")}\n\n${fence("json", RETURN)}`);
      expect(found).toMatchObject({ text: RETURN, origin: "fenced" });
      expect(parse.mock.calls).toEqual([[RETURN]]);
    } finally {
      parse.mockRestore();
    }
  });
});
