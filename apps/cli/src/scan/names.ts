import path from "node:path";
import { relativeInside } from "@returnlint/core";

/**
 * `relativeInside(base, file)` for the files a walk of `dir` yields, without a
 * `path.relative` per file (two paths resolved each time; a scan asks twice per return):
 * such a file is `dir`, a separator and names a directory listing gave (never `.`, `..`
 * or empty), so it is below `base` exactly when `dir` is, and its relative path is
 * `dir`'s followed by those names. Any other path is answered by `relativeInside` itself.
 */
export function relativeBelow(base: string, dir: string): (file: string) => string | undefined {
  const start = below(dir);
  const prefix = relativeInside(base, dir);
  if (prefix === undefined) return (file) => relativeInside(base, file);
  const lead = prefix === "" ? "" : prefix + path.sep;
  return (file) => (file.startsWith(start) && file.length > start.length ? lead + file.slice(start.length) : relativeInside(base, file));
}

/**
 * What a name listed in `dir` is joined to: `dir` and a separator. A listed name is never
 * empty, `.` or `..`, nor holds a separator, so joining is concatenating (path.join would
 * only normalise again); `dir` is a resolved path, which ends in a separator only as a root.
 */
export function below(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}
