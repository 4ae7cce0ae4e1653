import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { cacheFolder, readPath, type LoadedConfig } from "@returnlint/core";
import type { AuditFailure } from "./returns.js";
import type { Version } from "./repository.js";

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

/** Changes when what an entry holds, or what it is keyed on, changes: an older file is not read. */
const CACHE_FORMAT = 2;

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

/**
 * The results of one repository's versions under one config, kept in one file of the cache
 * folder named by `resultsKey`: read whole when the audit starts, written once when it ends
 * (through a temporary file and a rename, so that an audit that stops halfway leaves the old file).
 * A file that cannot be read or parsed is an empty cache, never an error: it is only ever a shortcut.
 */
export class ResultCache {
  private readonly entries: Map<string, CachedVerdict>;
  private added = 0;
  private walked: CachedWalk | undefined;
  private walkChanged = false;

  private constructor(
    readonly file: string,
    entries: Map<string, CachedVerdict>,
    walked: CachedWalk | undefined,
  ) {
    this.entries = entries;
    this.walked = walked;
  }

  static open(dir: string, key: string): ResultCache {
    const file = path.join(dir, `${key}.json`);
    let entries = new Map<string, CachedVerdict>();
    let walked: CachedWalk | undefined;
    try {
      const stored = JSON.parse(readFileSync(file, "utf8")) as { format?: unknown; entries?: unknown; walk?: unknown };
      if (stored.format === CACHE_FORMAT && typeof stored.entries === "object" && stored.entries !== null) {
        entries = new Map(Object.entries(stored.entries as Record<string, CachedVerdict>));
        const walk = stored.walk as Partial<CachedWalk> | undefined;
        if (typeof walk?.tip === "string" && Array.isArray(walk.versions)) walked = { tip: walk.tip, versions: walk.versions };
      }
    } catch {
      // No file yet, or one another version of returnlint wrote: every version is linted, and the file written anew.
    }
    return new ResultCache(file, entries, walked);
  }

  /** The last walk kept, to continue from. */
  lastWalk(): CachedWalk | undefined {
    return this.walked;
  }

  keepWalk(walk: CachedWalk): void {
    this.walkChanged = this.walkChanged || walk.tip !== this.walked?.tip || walk.versions.length !== this.walked.versions.length;
    this.walked = walk;
  }

  get size(): number {
    return this.entries.size;
  }

  get(version: Version): CachedVerdict | undefined {
    return this.entries.get(versionKey(version));
  }

  set(version: Version, verdict: CachedVerdict): void {
    this.entries.set(versionKey(version), verdict);
    this.added += 1;
  }

  /** Writes the file when an entry was added; a cache folder that cannot be written costs the next audit its shortcut, nothing else. */
  save(): string | null {
    if (this.added === 0 && !this.walkChanged) return null;
    const temporary = `${this.file}.${String(process.pid)}.tmp`;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      writeFileSync(temporary, JSON.stringify({ format: CACHE_FORMAT, walk: this.walked, entries: Object.fromEntries(this.entries) }));
      renameSync(temporary, this.file);
      return null;
    } catch (error) {
      rmSync(temporary, { force: true });
      return `the audit cache ${this.file} could not be written (${(error as NodeJS.ErrnoException).code ?? String(error)}): the next audit lints every version again.`;
    }
  }
}
