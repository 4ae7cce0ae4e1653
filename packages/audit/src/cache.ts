import { createHash } from "node:crypto";
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cacheFolder, readPath, type LoadedConfig } from "@returnlint/core";
import type { AuditFailure } from "./returns.js";
import { OBJECT_ID, type Version } from "./repository.js";

/**
 * What a version's lint said, as the cache keeps it: everything of an audited return that the
 * version's blob, its commit's tree, its path and date, the config and the rules decide. Whether it
 * is early metadata is not kept: that depends on the range audited (a later version of its file).
 */
export interface CachedVerdict {
  readonly status: string | null;
  readonly agent: string | null;
  readonly command: string | null;
  readonly ok: boolean;
  readonly phantom: boolean;
  readonly failures: readonly AuditFailure[];
}

/** Changes when what an entry holds, or what it is keyed on, or how the file is written, changes: an older file is not read. */
const CACHE_FORMAT = 3;

/** The versions a walk of the history up to `tip` found, in its order: the next audit walks only the commits after it. */
export interface CachedWalk {
  readonly tip: string;
  readonly versions: readonly Version[];
}

/** Where audit results are kept: $RETURNLINT_CACHE_DIR/audit, else $XDG_CACHE_HOME/returnlint/audit, else ~/.cache/returnlint/audit. */
export function auditCacheDir(env: NodeJS.ProcessEnv): string {
  return cacheFolder("audit", env);
}

/**
 * What every result of one audit depends on besides the version itself: the config as loaded (its
 * data, its presets, its contracts' schemas), the code of the rules it names (a custom rule's
 * module, read), `--preset`, the repository's folder (artifact paths are judged inside it),
 * the largest version read (RETURNLINT_MAX_INPUT_BYTES) and returnlint's version (the built-in
 * rules and presets are part of it).
 */
export function resultsKey(config: LoadedConfig, context: { readonly root: string; readonly preset?: string; readonly version: string; readonly maxBytes: number }): string {
  const hash = createHash("sha256");
  const part = (name: string, value: unknown) => hash.update(`${name}\0${JSON.stringify(value)}\0`);
  part("format", CACHE_FORMAT);
  part("version", context.version);
  part("root", context.root);
  part("preset", context.preset ?? null);
  // A version over the limit is unreadable, not judged: a verdict kept under a higher limit does not hold under a lower one.
  part("maxBytes", context.maxBytes);
  part("config", config.config);
  part("presets", [...config.presets.entries()]);
  part("contracts", [...config.contracts.entries()].map(([name, contract]) => [name, contract.file, contract.schema]));
  for (const [id, loaded] of config.rules) {
    part("rule", [id, loaded.source, loaded.rule.meta]);
    // A custom rule is code: the text of its module is what it does (a package's module path says where it came from, and its version).
    const code = readPath(loaded.source, 16 * 1024 * 1024, () => true);
    if (code !== null) hash.update(code);
  }
  return hash.digest("hex");
}

/** A version's entry: what makes it the same version to lint again. */
export const versionKey = (version: Version): string => `${version.blob} ${version.tree} ${String(version.time)} ${version.path}`;

/*
 * The file, one JSON line per audit that added to it, each line what that audit found beyond the
 * lines before it: `{"walk":{"from":TIP,"versions":[VERSION...]},"entries":[ENTRY...],"tip":TIP}`.
 * The first line's walk is `from` null: the versions of a whole walk; a later line's continues from
 * the tip of the line before it. A VERSION is `[commit, tree, time, parentless, path, blob]`; an
 * ENTRY is `[VERSION'S INDEX IN THE WALK or its key, status, agent, command, ok, phantom, failures]`,
 * a failure `[ruleId, messageId, message, pointer?]`. Arrays, and versions by index: the history's
 * hashes are written once, and the file read at every audit is about half what keys would make it.
 */

/** The lines a file may gain before it is written again as one. */
const MAX_LINES = 100;

type StoredVersion = [commit: string, tree: string, time: number, parentless: boolean, path: string, blob: string];
type StoredFailure = [ruleId: string, messageId: string, message: string, pointer?: string];
type StoredEntry = [version: number | string, status: string | null, agent: string | null, command: string | null, ok: boolean, phantom: boolean, failures: StoredFailure[]];
interface StoredLine {
  readonly walk: { readonly from: string | null; readonly versions: readonly StoredVersion[] };
  readonly entries: readonly StoredEntry[];
  readonly tip: string;
}

/** How every line ends: its tip last, so that the file's last bytes say the tip of the walk it keeps. */
const TIP_AT_END = /"tip":"([0-9a-f]{40}|[0-9a-f]{64})"\}\n$/;

const isText = (value: unknown): value is string => typeof value === "string";
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === "string";

function versionOf(stored: unknown): Version | undefined {
  if (!Array.isArray(stored) || stored.length !== 6) return undefined;
  const [commit, tree, time, parentless, path, blob] = stored as unknown[];
  if (!isText(commit) || !isText(tree) || typeof time !== "number" || typeof parentless !== "boolean" || !isText(path) || !isText(blob)) return undefined;
  return { commit, parentless, tree, time, path, blob };
}

function failureOf(stored: unknown): AuditFailure | undefined {
  if (!Array.isArray(stored) || stored.length < 3 || stored.length > 4) return undefined;
  const [ruleId, messageId, message, pointer] = stored as unknown[];
  if (!isText(ruleId) || !isText(messageId) || !isText(message) || (pointer !== undefined && !isText(pointer))) return undefined;
  return pointer === undefined ? { ruleId, messageId, message } : { ruleId, messageId, message, pointer };
}

function verdictOf(stored: readonly unknown[]): CachedVerdict | undefined {
  const [, status, agent, command, ok, phantom, failures] = stored;
  if (!isTextOrNull(status) || !isTextOrNull(agent) || !isTextOrNull(command) || typeof ok !== "boolean" || typeof phantom !== "boolean" || !Array.isArray(failures)) return undefined;
  const read: AuditFailure[] = [];
  for (const failure of failures) {
    const one = failureOf(failure);
    if (one === undefined) return undefined;
    read.push(one);
  }
  return { status, agent, command, ok, phantom, failures: read };
}

const storedVersion = (version: Version): StoredVersion => [version.commit, version.tree, version.time, version.parentless, version.path, version.blob];

const storedEntry = (version: number | string, verdict: CachedVerdict): StoredEntry => [
  version,
  verdict.status,
  verdict.agent,
  verdict.command,
  verdict.ok,
  verdict.phantom,
  verdict.failures.map(({ ruleId, messageId, message, pointer }) => (pointer === undefined ? [ruleId, messageId, message] : [ruleId, messageId, message, pointer])),
];

/** What a cache file holds, read line by line up to the first line that is not one (a file cut short, or written by another program). */
interface Read {
  /** The verdicts on the versions of the walk kept, by version. */
  readonly byVersion: Map<Version, CachedVerdict>;
  /** The verdicts on versions the walk kept does not hold (another branch's), by `versionKey`. */
  readonly byKey: Map<string, CachedVerdict>;
  readonly walk: CachedWalk | undefined;
  readonly lines: number;
  /** Every line of the file was read: another may be added to it. */
  readonly whole: boolean;
}

function readFile(file: string): Read {
  const read = { byVersion: new Map<Version, CachedVerdict>(), byKey: new Map<string, CachedVerdict>() };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // No file yet: every version is linted, and the file written.
    return { ...read, walk: undefined, lines: 0, whole: false };
  }
  const versions: Version[] = [];
  let tip: string | null = null;
  let lines = 0;
  let whole = text.endsWith("\n");
  for (let start = 0, end = text.indexOf("\n"); start < text.length; start = end + 1, end = text.indexOf("\n", start)) {
    const lineTip: string | undefined = end === -1 ? undefined : readLine(text.slice(start, end), tip, versions, read);
    if (lineTip === undefined) {
      whole = false;
      break;
    }
    tip = lineTip;
    lines += 1;
  }
  return { ...read, walk: tip === null ? undefined : { tip, versions }, lines, whole: whole && lines > 0 };
}

/**
 * One line: its versions added to `versions`, its verdicts to `into`; the tip it ends at, or
 * undefined (and `versions` as it was) when the line is not one that continues from `tip`.
 */
function readLine(text: string, tip: string | null, versions: Version[], into: Pick<Read, "byVersion" | "byKey">): string | undefined {
  let line: Partial<StoredLine>;
  try {
    line = JSON.parse(text) as Partial<StoredLine>;
  } catch {
    return undefined;
  }
  const { walk, entries, tip: lineTip } = line;
  if (walk?.from !== tip || !Array.isArray(walk.versions) || !Array.isArray(entries) || !isText(lineTip) || !OBJECT_ID.test(lineTip)) return undefined;
  const before = versions.length;
  const read = readLineBody(walk.versions, entries as unknown[], versions);
  if (read === undefined) {
    versions.length = before;
    return undefined;
  }
  for (const [which, verdict] of read) {
    if (typeof which === "string") into.byKey.set(which, verdict);
    else into.byVersion.set(which, verdict);
  }
  return lineTip;
}

/** A line's versions, added to `versions`, and its verdicts, each on its version (or its key); undefined at the first that is not one. */
function readLineBody(stored: readonly unknown[], entries: readonly unknown[], versions: Version[]): [Version | string, CachedVerdict][] | undefined {
  for (const one of stored) {
    const version = versionOf(one);
    if (version === undefined) return undefined;
    versions.push(version);
  }
  const read: [Version | string, CachedVerdict][] = [];
  for (const entry of entries) {
    if (!Array.isArray(entry) || entry.length !== 7) return undefined;
    const which: unknown = entry[0];
    const version = typeof which === "number" ? versions[which] : isText(which) ? which : undefined;
    const verdict = verdictOf(entry);
    if (version === undefined || verdict === undefined) return undefined;
    read.push([version, verdict]);
  }
  return read;
}

/**
 * The results of one repository's versions under one config, kept in one file of the cache
 * folder named by `resultsKey`: read whole when the audit starts; when it ends, what it found is
 * added to the file as one line (a single write), or, after a walk that did not continue the
 * file's (another branch, a rewritten history) or when the file has many lines, the file is
 * written anew as one line (through a temporary file and a rename, so that an audit that stops
 * halfway leaves the old file). A file that cannot be read or parsed is an empty cache, never an
 * error: it is only ever a shortcut. A line that is not one ends what is read, and the file is
 * written anew.
 */
export class ResultCache {
  /** Verdicts by version: those of the walk kept, and those this audit found. */
  private readonly byVersion: Map<Version, CachedVerdict>;
  /** Verdicts by `versionKey`: of versions outside the walk kept, and, once a walk did not continue it, of all (`keyed`). */
  private readonly byKey: Map<string, CachedVerdict>;
  /** The entries this audit added, in order, to be written. */
  private readonly added: [Version, CachedVerdict][] = [];
  private walked: CachedWalk | undefined;
  /** The walk the file holds (its last line's tip), and how many lines it has, when it can be added to. */
  private readonly kept: { readonly walk: CachedWalk; readonly lines: number } | undefined;
  /** The walk of this audit does not continue the one read: its versions are other objects, found by key. */
  private replaced = false;

  private constructor(
    readonly file: string,
    read: Read,
  ) {
    this.byVersion = read.byVersion;
    this.byKey = read.byKey;
    this.walked = read.walk;
    this.kept = read.whole && read.walk !== undefined ? { walk: read.walk, lines: read.lines } : undefined;
  }

  static open(dir: string, key: string): ResultCache {
    const file = path.join(dir, `${key}.ndjson`);
    return new ResultCache(file, readFile(file));
  }

  /**
   * The tip of the walk kept in the file for `key`, read from the file's last bytes (each line ends
   * with its tip) without parsing the file: the audit starts git on the commits after it while the
   * file is parsed. Undefined when there is no such file, or it ends otherwise.
   */
  static keptTip(dir: string, key: string): string | undefined {
    let fd: number | undefined;
    try {
      fd = openSync(path.join(dir, `${key}.ndjson`), "r");
      const tail = Buffer.alloc(96);
      const size = fstatSync(fd).size;
      const length = readSync(fd, tail, 0, Math.min(tail.length, size), Math.max(0, size - tail.length));
      return TIP_AT_END.exec(tail.toString("latin1", 0, length))?.[1];
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }

  /** The last walk kept, to continue from. */
  lastWalk(): CachedWalk | undefined {
    return this.walked;
  }

  /** This audit's walk: the one kept and the versions after it, or another (then every verdict is looked for by key). */
  keepWalk(walk: CachedWalk): void {
    const last = this.walked?.versions;
    const continues = last === undefined || (walk.versions.length >= last.length && walk.versions[last.length - 1] === last.at(-1));
    if (!continues && !this.replaced) {
      this.replaced = true;
      for (const [version, verdict] of this.byVersion) this.byKey.set(versionKey(version), verdict);
    }
    this.walked = walk;
  }

  get(version: Version): CachedVerdict | undefined {
    // A version of the walk kept is that very object; another is new, unless the walk was replaced or it is another branch's.
    return this.byVersion.get(version) ?? (this.byKey.size === 0 ? undefined : this.byKey.get(versionKey(version)));
  }

  set(version: Version, verdict: CachedVerdict): void {
    this.byVersion.set(version, verdict);
    this.added.push([version, verdict]);
  }

  /** Writes what this audit added to the file; a cache folder that cannot be written costs the next audit its shortcut, nothing else. */
  save(): string | null {
    const walk = this.walked;
    if (walk === undefined) return null;
    const kept = this.kept;
    // The file's walk, continued by this audit's: what is new goes on a line of its own.
    const continues = kept !== undefined && !this.replaced && kept.lines < MAX_LINES;
    if (continues && this.added.length === 0 && walk.tip === kept.walk.tip) return null;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      if (continues) appendFileSync(this.file, this.line(kept.walk.tip, walk, kept.walk.versions.length));
      else this.writeWhole(walk);
      return null;
    } catch (error) {
      return `the audit cache ${this.file} could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)}): the next audit lints every version again.`;
    }
  }

  /** The file written anew as one line: the walk, the verdicts on its versions by their place in it, and every other verdict by key. */
  private writeWhole(walk: CachedWalk): void {
    const entries: StoredEntry[] = [];
    const written = new Set<string>();
    for (const [index, version] of walk.versions.entries()) {
      const key = versionKey(version);
      const verdict = this.byVersion.get(version) ?? this.byKey.get(key);
      if (verdict === undefined) continue;
      entries.push(storedEntry(index, verdict));
      written.add(key);
    }
    const others = new Map(this.byKey);
    for (const [version, verdict] of this.byVersion) others.set(versionKey(version), verdict);
    for (const [key, verdict] of others) if (!written.has(key)) entries.push(storedEntry(key, verdict));
    const temporary = `${this.file}.${String(process.pid)}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify({ walk: { from: null, versions: walk.versions.map(storedVersion) }, entries, tip: walk.tip } satisfies StoredLine)}\n`);
      renameSync(temporary, this.file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  /** The line that continues the file's walk `from` its tip: the versions after the first `known`, and the verdicts this audit found. */
  private line(from: string, walk: CachedWalk, known: number): string {
    const after = walk.versions.slice(known);
    const indexOf = new Map(after.map((version, index) => [version, known + index]));
    const entries = this.added.map(([version, verdict]) => storedEntry(indexOf.get(version) ?? versionKey(version), verdict));
    return `${JSON.stringify({ walk: { from, versions: after.map(storedVersion) }, entries, tip: walk.tip } satisfies StoredLine)}\n`;
  }
}
