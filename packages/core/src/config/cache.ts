/**
 * returnlint's cache folder: what a check would otherwise work out again at every start, kept under
 * the text it came from: compiled contracts (contract-load.ts), parsed YAML configs (load.ts), the
 * audit's results (@returnlint/audit). An entry is used only for the very text it was made from (its first line), so its name
 * needs no cryptographic hash (node:crypto alone costs a check several milliseconds of start-up). A
 * folder that cannot be written costs the next check the work again, nothing else.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/** `kind`'s folder: $RETURNLINT_CACHE_DIR/KIND, else $XDG_CACHE_HOME/returnlint/KIND, else ~/.cache/returnlint/KIND. */
export function cacheFolder(kind: string, env: NodeJS.ProcessEnv = process.env): string {
  const given = env.RETURNLINT_CACHE_DIR;
  if (given !== undefined && given !== "") return path.join(given, kind);
  const xdg = env.XDG_CACHE_HOME;
  // node:os on use: the library's index exports this module, and every run that loads the library would load it.
  return path.join(xdg !== undefined && xdg !== "" ? xdg : path.join(process.getBuiltinModule("node:os").homedir(), ".cache"), "returnlint", kind);
}

/**
 * An entry's name: 64 bits of FNV-1a (two 32-bit lanes with different offsets) over the entry's
 * format (which changes when what is kept changes) and the text, in hex. Two texts that share a
 * name only take turns in the entry.
 */
export function entryName(format: string, text: string): string {
  const keyed = `${format}\0${text}`;
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let index = 0; index < keyed.length; index += 1) {
    const code = keyed.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193);
    high = Math.imul(high ^ code, 0x01000193) ^ (low >>> 15);
  }
  return `${(high >>> 0).toString(16).padStart(8, "0")}${(low >>> 0).toString(16).padStart(8, "0")}`;
}

/** Written beside its name, then renamed: a check running at the same time reads the whole file or none. */
export function replaceFile(file: string, content: string | Buffer): void {
  const partial = `${file}.${String(process.pid)}.tmp`;
  writeFileSync(partial, content);
  renameSync(partial, file);
}

/**
 * What the entry `file` holds after its first line, when that line is `firstLine` (the text, as
 * JSON: JSON.stringify writes no line feed); undefined when there is no such entry, or it is
 * another text's (two texts that share a name take turns in it).
 */
export function entryAfter(file: string, firstLine: string): string | undefined {
  let entry: string;
  try {
    entry = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const newline = entry.indexOf("\n");
  return newline === -1 || entry.slice(0, newline) !== firstLine ? undefined : entry.slice(newline + 1);
}

/** The value kept in `folder` for `text` (its `format`), when an entry holds that very text. */
export function keptValue(folder: string, format: string, text: string): { readonly value: unknown } | undefined {
  const kept = entryAfter(path.join(folder, `${entryName(format, text)}.json`), JSON.stringify(text));
  if (kept === undefined) return undefined;
  try {
    return { value: JSON.parse(kept) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Keeps `value`, worked out from `text`, in `folder`; only a value JSON gives back as it is (plain
 * objects and arrays, strings, finite numbers, booleans, null), and never one that names
 * `__proto__`, which JSON.parse would give back as a key of its own.
 */
export function keepValue(folder: string, format: string, text: string, value: unknown): void {
  // Only a value JSON has text for: undefined itself has none.
  if (value === undefined || text.includes("__proto__")) return;
  const found = { unfaithful: false };
  const json = JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner === "number" ? !Number.isFinite(inner) || Object.is(inner, -0) : typeof inner === "object" && inner !== null && !Array.isArray(inner) && Object.getPrototypeOf(inner) !== Object.prototype) {
      found.unfaithful = true;
    }
    return inner;
  });
  if (found.unfaithful) return;
  try {
    mkdirSync(folder, { recursive: true });
    replaceFile(path.join(folder, `${entryName(format, text)}.json`), `${JSON.stringify(text)}\n${json}`);
  } catch {
    // A cache that cannot be written costs the next check the work again, nothing else.
  }
}
