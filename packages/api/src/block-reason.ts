import { problemLines, problemReaskLines, type CheckedReturn, type Problem } from "./subagent.js";

// What a failing return's reader is told, by every host and framework that sends a subagent back
// (the stop hooks, the framework adapters): one wording, addressed to whoever reads it.

/** Who reads a block's reason: the subagent, sent back to work, or the parent, which receives the reason in place of the return. */
export type BlockReader = "subagent" | "parent";

/** How much of a return a parent-reader is shown in the block that replaces it. */
const MAX_QUOTED_RETURN = 2000;

/**
 * What the reader of a block reads. The subagent, sent back: each problem addressed to it
 * (`--format reask`'s lines, which never give away the expected session id), and what to do. The
 * parent, which gets the reason in place of the return (Gemini CLI, a framework's agent used as a
 * tool): that the return failed, why, and that the work is not done, in words it acts on; then
 * the return it no longer sees otherwise, cut short, so that what the subagent did find is not lost.
 */
export function blockReason(
  checked: CheckedReturn,
  context: { readonly command: string; readonly attempt: number; readonly reader: BlockReader; readonly agent: string | undefined; readonly returned: string | undefined },
): string {
  const count = checked.problemCount;
  const problems = `${String(count)} ${count === 1 ? "problem" : "problems"}`;
  if (context.reader === "parent") {
    const who = `the subagent ${context.agent ?? ""}`.trimEnd();
    const what = checked.missing ? `its return (${checked.source})` : checked.origin === "file" ? `its return in ${checked.source}` : "its return";
    const returned = context.returned ?? "";
    const cut = returned.length > MAX_QUOTED_RETURN ? `${returned.slice(0, MAX_QUOTED_RETURN)}\n… (${String(returned.length - MAX_QUOTED_RETURN)} more characters)` : returned;
    return [
      `returnlint: ${who} stopped, and ${what} failed validation for /${context.command} (${problems}). Its work is not done as it says:`,
      ...problemLines(checked.problems, count),
      `Do not rely on what it claims. Run it again to do the missing work (tell it what failed above), or do the work yourself, then check again.`,
      ...(returned.trim() === "" ? [] : [`What it returned, which this message replaces:`, cut]),
    ].join("\n");
  }
  // A return file the subagent should have written and did not: its name stands for the return.
  const where = checked.missing ? `Your return (${checked.source})` : checked.origin === "file" ? `Your return in ${checked.source}` : "Your final message's return";
  const lines = [`returnlint: ${where} failed validation for /${context.command} (${problems}, attempt ${String(context.attempt)}):`];
  lines.push(...problemReaskLines(checked.problems, count));
  lines.push(
    checked.missing
      ? `Write the metadata file as your instructions say, then finish again.`
      : checked.origin === "file"
        ? `Do the missing work or correct the metadata file so that it only claims what exists, then finish again.`
        : `Do the missing work or correct the return so that it only claims what exists, then finish again with the corrected JSON return as your final message.`,
  );
  return lines.join("\n");
}

/** The problems without the attempt counter, hashed, so that the same problems sent back twice compare equal. */
export function problemsDigest(problems: readonly Problem[]): string {
  const text = problems.map((problem) => [problem.message, problem.detail ?? "", problem.recommendation ?? ""].join("\n")).join("\n\n");
  return process.getBuiltinModule("node:crypto").createHash("sha256").update(text).digest("hex").slice(0, 32);
}
