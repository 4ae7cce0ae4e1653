// Replays the corpus of real returns (../shared/corpus/return-meta) through the library API and
// checks the invariants of issue 3. Shared by scripts/corpus.mjs and test/corpus.test.ts.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { lintSource, loadReturnlintConfig, validate } from "@returnlint/api";
import { detectFormat } from "@returnlint/core";

export const PRESET = "metadata-file";

/** The artifact rule's default skipStatuses: unfinished work, whose artifacts are not checked (subagent-return-validation.md's rule). */
export const UNCHECKED_STATUSES = Object.freeze(["partial", "failed", "blocked", "in_progress"]);

/** The metadata-file vocabulary (return-metadata-file.md). */
export const CONTEXTUAL_STATUSES = Object.freeze(["researched", "planned", "implemented", "partial", "failed", "blocked", "in_progress"]);

/** Index marks of an artifact path that did not exist as a file in the project at that commit. */
export const BAD_MARKS = Object.freeze(["missing_at_commit_but_exists_elsewhere_in_history", "never_in_history", "absolute_path"]);

const COMMAND_FOR_STATUS = Object.freeze({ researched: "research", planned: "plan", implemented: "implement" });

/** Statuses that claim finished work: the schema's, legacy `completed`, and the corpus' own words for it. */
const SUCCESS_LIKE =
  /^(?:researched|planned|implemented|completed?|done|success|successful|succeeded|finished|ok|ready)$|_(?:done|complete|completed|written|ready|finished|created)$|^ready_for_/;

const PLACEHOLDER = "returnlint corpus replay: this artifact existed at the return's commit\n";

export class CorpusMissingError extends Error {
  /** @param {string} dir */
  constructor(dir) {
    super(`corpus not found: ${dir} has no INDEX.jsonl (set RETURNLINT_CORPUS or pass the corpus directory)`);
    this.name = "CorpusMissingError";
    this.code = "CORPUS_MISSING";
  }
}

/** The corpus directory: an explicit argument, then RETURNLINT_CORPUS, then ../shared/corpus next to the repository. */
export function resolveCorpusDir(repoRoot, override = process.env.RETURNLINT_CORPUS) {
  const base = override === undefined || override === "" ? path.resolve(repoRoot, "..", "shared", "corpus") : path.resolve(override);
  // Accept both the corpus root and its return-meta/ folder.
  return existsSync(path.join(base, "INDEX.jsonl")) ? base : path.join(base, "return-meta");
}

export function corpusExists(dir) {
  return existsSync(path.join(dir, "INDEX.jsonl"));
}

export function commandForStatus(status) {
  return typeof status === "string" && Object.hasOwn(COMMAND_FOR_STATUS, status) ? COMMAND_FOR_STATUS[status] : null;
}

export function isSuccessLike(status) {
  return typeof status === "string" && SUCCESS_LIKE.test(status);
}

function isPlainObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Where a path in a return lands under root, or null when it is absolute, empty or escapes root. */
export function insideRoot(root, relative) {
  if (typeof relative !== "string" || relative === "" || relative.includes("\0") || path.isAbsolute(relative)) return null;
  const target = path.resolve(root, relative);
  const rel = path.relative(root, target);
  if (rel === "" || rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return target;
}

/** The schema's artifact path: a file (not a directory, written with a trailing slash) relative to the project root, inside it. */
function namesProjectFile(artifactPath) {
  return typeof artifactPath === "string" && !artifactPath.endsWith("/") && insideRoot(path.resolve("/project"), artifactPath) !== null;
}

/**
 * Files the return names besides its artifacts (partial_progress.handoff_path, memory_candidates[].source_artifact,
 * modified_files[]): the index does not record whether they existed at the commit, so the replay cannot create them.
 */
function namesUnrecordedFiles(value) {
  const progress = value.partial_progress;
  const candidates = Array.isArray(value.memory_candidates) ? value.memory_candidates : [];
  return (
    (isPlainObject(progress) && typeof progress.handoff_path === "string") ||
    candidates.some((candidate) => isPlainObject(candidate) && typeof candidate.source_artifact === "string") ||
    (Array.isArray(value.modified_files) && value.modified_files.length > 0)
  );
}

function hasCompletionSummary(completionData) {
  return isPlainObject(completionData) && typeof completionData.completion_summary === "string" && completionData.completion_summary.trim() !== "";
}

/**
 * What the return must get, from its index entry and its parsed value:
 * (a) a missing, never-existing or absolute artifact path under a status whose artifacts are checked → fail;
 * (b) a success-like status with no artifacts → fail;
 * (c) a return that follows the metadata-file schema with every artifact present → pass.
 *     The schema makes completion_data.completion_summary mandatory for every `implemented` return;
 *     a return that names other files the index does not record (a handoff, …) is not expected either way.
 */
export function expectationsFor(entry, value) {
  const status = isPlainObject(value) ? value.status : undefined;
  const marks = entry.artifact_paths_at_commit ?? [];
  const badPaths = marks.filter(([, mark]) => BAD_MARKS.includes(mark)).map(([artifactPath, mark]) => ({ path: artifactPath, mark }));
  const artifactsChecked = !(typeof status === "string" && UNCHECKED_STATUSES.includes(status));
  const artifacts = isPlainObject(value) ? value.artifacts : undefined;
  const noArtifacts = !Array.isArray(artifacts) || artifacts.length === 0;
  const metadata = isPlainObject(value) ? value.metadata : undefined;
  const followsSchema =
    typeof status === "string" &&
    CONTEXTUAL_STATUSES.includes(status) &&
    Array.isArray(artifacts) &&
    artifacts.every((artifact) => isPlainObject(artifact) && namesProjectFile(artifact.path)) &&
    !(isSuccessLike(status) && artifacts.length === 0) &&
    isPlainObject(metadata) &&
    typeof metadata.session_id === "string" &&
    metadata.session_id !== "" &&
    (status !== "implemented" || hasCompletionSummary(value.completion_data)) &&
    marks.every(([, mark]) => mark === "present") &&
    !namesUnrecordedFiles(value);
  return {
    badPaths,
    artifactsChecked,
    mustFailBadPath: badPaths.length > 0 && artifactsChecked,
    exemptBadPath: badPaths.length > 0 && !artifactsChecked,
    mustFailNoArtifacts: isSuccessLike(status) && noArtifacts,
    mustPass: followsSchema,
  };
}

export async function readIndex(corpusDir) {
  if (!corpusExists(corpusDir)) throw new CorpusMissingError(corpusDir);
  const text = await readFile(path.join(corpusDir, "INDEX.jsonl"), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

/** Recreates the return's world under root: its present artifacts as non-empty files, then the return itself. */
async function materialize(root, entry, text) {
  const skipped = [];
  for (const [artifactPath, mark] of entry.artifact_paths_at_commit ?? []) {
    if (mark !== "present") continue;
    const target = insideRoot(root, artifactPath);
    if (target === null) {
      skipped.push({ path: artifactPath, reason: "absolute or outside the root" });
      continue;
    }
    try {
      // A path written with a trailing slash was a directory at that commit: recreate it as one.
      if (artifactPath.endsWith("/")) {
        await mkdir(target, { recursive: true });
        await writeFile(path.join(target, "placeholder.txt"), PLACEHOLDER);
      } else {
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, PLACEHOLDER);
      }
    } catch (error) {
      skipped.push({ path: artifactPath, reason: error.code ?? String(error) });
    }
  }
  const returnTarget = insideRoot(root, entry.path);
  if (returnTarget === null) {
    skipped.push({ path: entry.path, reason: "return path is absolute or outside the root" });
  } else {
    try {
      await mkdir(path.dirname(returnTarget), { recursive: true });
      await writeFile(returnTarget, text);
    } catch (error) {
      skipped.push({ path: entry.path, reason: error.code ?? String(error) });
    }
  }
  return skipped;
}

function parseOrUndefined(text) {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return undefined;
  }
}

/** Replays every return of the corpus; each gets a fresh root, removed as soon as it is validated. */
export async function replayCorpus(corpusDir, { concurrency = 16 } = {}) {
  const started = performance.now();
  const index = await readIndex(corpusDir);
  const parent = await mkdtemp(path.join(tmpdir(), "returnlint-corpus-"));
  try {
    const config = await loadReturnlintConfig({ cwd: parent, preset: PRESET });
    // No config and no preset, as a new user runs `returnlint check specs/N_x/.return-meta.json`: the format is detected.
    const auto = await loadReturnlintConfig({ cwd: parent });
    const records = new Array(index.length);
    let next = 0;
    const worker = async () => {
      while (next < index.length) {
        const position = next;
        next += 1;
        const entry = index[position];
        const text = await readFile(path.join(corpusDir, entry.file), "utf8");
        const value = parseOrUndefined(text);
        const status = isPlainObject(value) ? value.status : undefined;
        const command = commandForStatus(status);
        const root = path.join(parent, String(position));
        await mkdir(root);
        try {
          const skipped = await materialize(root, entry, text);
          const report = await validate(text, { config, preset: PRESET, command, root });
          // The file as a file source: its whole content, its format by its name, as check, scan and audit read it.
          const { report: detected } = await lintSource({ kind: "file", text, name: entry.path }, { config: auto, command, root });
          records[position] = {
            file: entry.file,
            path: entry.path,
            status: status === undefined ? null : status,
            command,
            ok: report.ok,
            errorCount: report.errorCount,
            warningCount: report.warningCount,
            problems: report.results.filter((result) => result.level === "fail" || result.level === "warn"),
            skipped,
            expectations: expectationsFor(entry, value),
            detection: {
              fromPath: detected.format,
              sameVerdict: detected.ok === report.ok && detected.errorCount === report.errorCount,
              contentOnly: detectFormat(value).format,
            },
          };
        } finally {
          await rm(root, { recursive: true, force: true });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
    return { corpusDir, tempDir: parent, records, elapsedMs: performance.now() - started };
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

function increment(map, key, by = 1) {
  map.set(key, (map.get(key) ?? 0) + by);
}

function statusKey(status) {
  return typeof status === "string" ? status : status === null ? "(none)" : JSON.stringify(status);
}

/** Counts and invariant results of one replay. */
export function summarize(run) {
  const { records } = run;
  const passed = records.filter((record) => record.ok).length;
  const byRule = new Map(); // ruleId → messageId → { returns, findings }
  const warnings = new Map();
  for (const record of records) {
    const seen = new Set();
    for (const problem of record.problems) {
      const target = problem.level === "fail" ? byRule : warnings;
      const messages = target.get(problem.ruleId) ?? new Map();
      target.set(problem.ruleId, messages);
      const counts = messages.get(problem.messageId) ?? { returns: 0, findings: 0 };
      messages.set(problem.messageId, counts);
      counts.findings += 1;
      const key = `${problem.level} ${problem.ruleId} ${problem.messageId}`;
      if (!seen.has(key)) counts.returns += 1;
      seen.add(key);
    }
  }
  const statuses = new Map();
  for (const record of records) {
    const key = statusKey(record.status);
    const counts = statuses.get(key) ?? { command: record.command, total: 0, pass: 0, fail: 0 };
    statuses.set(key, counts);
    counts.total += 1;
    counts[record.ok ? "pass" : "fail"] += 1;
  }
  const invariant = (id, title, applies, expectPass, exempt = () => false) => {
    const checked = records.filter(applies);
    return {
      id,
      title,
      checked: checked.length,
      violations: checked.filter((record) => record.ok !== expectPass),
      exempt: records.filter(exempt),
    };
  };
  const invariants = [
    invariant(
      "a",
      "returns naming a missing, never-existing or absolute artifact path FAIL",
      (record) => record.expectations.mustFailBadPath,
      false,
      (record) => record.expectations.exemptBadPath,
    ),
    invariant("b", "success returns with no artifacts FAIL", (record) => record.expectations.mustFailNoArtifacts, false),
    invariant("c", "returns that follow the metadata-file schema, all artifacts present, PASS", (record) => record.expectations.mustPass, true),
    {
      id: "d",
      title: "with no config, a .return-meta.json read from its path is a metadata file, with the verdict of the metadata-file preset",
      checked: records.filter(isMetadataFile).length,
      violations: records.filter((record) => isMetadataFile(record) && (record.detection.fromPath !== PRESET || !record.detection.sameVerdict)),
      exempt: [],
    },
  ];
  const detection = new Map();
  for (const record of records) if (isMetadataFile(record)) increment(detection, record.detection.contentOnly);
  return {
    corpusDir: run.corpusDir,
    elapsedMs: run.elapsedMs,
    total: records.length,
    passed,
    failed: records.length - passed,
    byRule,
    warnings,
    statuses,
    detection,
    skippedPaths: records.filter((record) => record.skipped.length > 0),
    invariants,
    ok: invariants.every((result) => result.violations.length === 0),
  };
}

/** The index holds a few sibling names (`.spawn-return.json`): detection by path applies to `.return-meta.json` only. */
function isMetadataFile(record) {
  return path.basename(record.path) === ".return-meta.json";
}

function table(rows, indent = "  ") {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => String(row[column]).length))) ?? [];
  return rows.map((row) =>
    indent +
    row
      .map((cell, column) => (typeof cell === "number" ? String(cell).padStart(widths[column]) : String(cell).padEnd(widths[column])))
      .join("  ")
      .trimEnd(),
  );
}

function sortedByCount(map, count) {
  return [...map.entries()].sort((left, right) => count(right[1]) - count(left[1]) || String(left[0]).localeCompare(String(right[0])));
}

function ruleLines(byRule) {
  const rows = [];
  for (const [ruleId, messages] of sortedByCount(byRule, (m) => Math.max(...[...m.values()].map((c) => c.returns)))) {
    for (const [messageId, counts] of sortedByCount(messages, (c) => c.returns)) rows.push([ruleId, messageId, counts.returns, counts.findings]);
  }
  return rows.length === 0 ? ["  (none)"] : table([["rule", "messageId", "returns", "findings"], ...rows]);
}

/** What made a return fail (the failing rule/messageId pairs, with the field for missing fields), or that it passed. */
export function causeOf(record) {
  if (record.ok) return `passed (status ${statusKey(record.status)})`;
  const causes = record.problems
    .filter((problem) => problem.level === "fail")
    .map((problem) => `${problem.ruleId}/${problem.messageId}${problem.ruleId === "required-fields" && problem.pointer !== undefined ? ` ${problem.pointer}` : ""}`);
  return [...new Set(causes)].sort().join(" + ");
}

function causesOf(records) {
  const causes = new Map();
  for (const record of records) increment(causes, causeOf(record));
  return causes;
}

export function describeRecord(record) {
  const lines = [`    ${record.file}`, `      status ${statusKey(record.status)}, command ${record.command ?? "(none)"}, verdict ${record.ok ? "PASS" : "FAIL"}`];
  for (const bad of record.expectations.badPaths) lines.push(`      index: ${bad.mark}: ${bad.path}`);
  for (const problem of record.problems) {
    lines.push(`      [${problem.level.toUpperCase()}] ${problem.ruleId}/${problem.messageId}${problem.pointer === undefined ? "" : ` at ${problem.pointer}`}: ${problem.message}`);
  }
  for (const skipped of record.skipped) lines.push(`      not recreated: ${skipped.path} (${skipped.reason})`);
  return lines;
}

export function formatSummary(summary) {
  const lines = [
    `returnlint corpus replay: ${summary.total} returns from ${summary.corpusDir}`,
    `preset ${PRESET}, command inferred from the status (researched→research, planned→plan, implemented→implement, else none), ${(summary.elapsedMs / 1000).toFixed(1)} s`,
    "",
    "Verdicts",
    ...table([
      ["pass", summary.passed],
      ["fail", summary.failed],
    ]),
    "",
    "Failures by rule (returns with the finding / findings)",
    ...ruleLines(summary.byRule),
    "",
    "Warnings by rule (returns / findings)",
    ...ruleLines(summary.warnings),
    "",
    "Statuses",
    ...table([
      ["status", "command", "class", "returns", "pass", "fail"],
      ...sortedByCount(summary.statuses, (c) => c.total).map(([status, c]) => [
        status,
        c.command ?? "-",
        UNCHECKED_STATUSES.includes(status) ? "unfinished" : isSuccessLike(status) ? "success" : "other",
        c.total,
        c.pass,
        c.fail,
      ]),
    ]),
  ];
  lines.push(
    "",
    "Format detected from the content alone (no path: a metadata file piped to standard input)",
    ...table([["format", "returns"], ...sortedByCount(summary.detection, (count) => count)]),
  );
  if (summary.skippedPaths.length > 0) {
    lines.push("", `Present artifact paths that could not be recreated under the root: ${summary.skippedPaths.length} returns`);
    for (const record of summary.skippedPaths) {
      for (const skipped of record.skipped) lines.push(`    ${record.file}: ${skipped.path} (${skipped.reason})`);
    }
  }
  lines.push("", "Invariants");
  for (const result of summary.invariants) {
    const verdict = result.violations.length === 0 ? "OK" : "VIOLATED";
    lines.push(`  (${result.id}) ${result.title}: ${result.checked} returns, ${result.violations.length} violations [${verdict}]`);
    if (result.id === "a") {
      lines.push(
        `      only statuses whose artifacts are checked: ${UNCHECKED_STATUSES.join(", ")} skip the artifact checks by design (subagent-return-validation.md's rule),`,
        `      so ${result.exempt.length} returns with such paths are exempt: ${result.exempt.map((record) => `${record.file} (${statusKey(record.status)}, ${record.ok ? "pass" : "fail"})`).join("; ") || "none"}`,
      );
    }
    if (result.violations.length > 0) {
      lines.push("      by cause:");
      lines.push(...table(sortedByCount(causesOf(result.violations), (count) => count).map(([cause, count]) => [count, cause]), "        "));
      lines.push("      returns:");
    }
    for (const record of result.violations) lines.push(...describeRecord(record));
  }
  lines.push("", summary.ok ? "All invariants hold." : "Invariant violations found (exit 1).");
  return lines.join("\n");
}
