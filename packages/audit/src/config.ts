import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { CONFIG_FILES, ReturnlintError, isObject, isReturnlintError, readPath, type GitFileView, type Importer, type LoadedConfig } from "@returnlint/core";
import { loadReturnlintConfig } from "@returnlint/api";
import type { Repository } from "./repository.js";

/**
 * Where the applied config came from, and whether code from the audited repository could run:
 * `given` (`--config FILE`, the user's own), `data` (the repository's, read as data: no module
 * imported), `trusted` (the repository's, with `--trust-repo-config`: its code may run), `builtin`
 * (none applied: the built-in presets).
 */
export type ConfigKind = "given" | "data" | "trusted" | "builtin";

export interface AuditConfig {
  readonly config: LoadedConfig;
  /** What the report says the config was: `HEAD:returnlint.config.yaml`, a file given with --config, or null for none. */
  readonly source: string | null;
  readonly kind: ConfigKind;
  /**
   * Why the committed config was not applied: it is code or names code (`HEAD:returnlint.config.mjs is
   * JavaScript`), and `--trust-repo-config` was not given; the built-in presets applied instead. Else null.
   */
  readonly refused: string | null;
  /**
   * A config in the clone's working tree that the audit did not apply (not committed, or changed
   * since the tip), as `--config` would take it from the current directory: the report says how to
   * audit with it. Null when --config was given, when there is none, or when it is the one applied.
   */
  readonly unapplied: string | null;
}

export interface ConfigChoice {
  readonly config?: string;
  readonly preset?: string;
  readonly importer?: Importer;
  /** `--trust-repo-config`: the committed config's code, and the modules it names, may run. */
  readonly trustRepoConfig?: boolean;
}

const MANIFEST = "package.json";
const MAX_CONFIG_BYTES = 1024 * 1024;
const JAVASCRIPT = /\.(?:m?js|cjs|[cm]?ts)$/;

/**
 * The config an audit applies to every version: `--config FILE` when given, else the
 * one committed at the tip of the audited history (the same names `check` looks
 * for, at the repository's root). One yardstick for all of history, so that rates
 * from different months compare; the same in a clone and in a bare repository;
 * uncommitted edits do not change what history says.
 *
 * The repository is not trusted: whoever committed to it (a subagent among them) chose
 * that config. So by default it is read as data, from a private temporary copy of the
 * committed text: a JavaScript config is not run, and a config that names a rule or preset
 * module is not applied either (modules are code); the built-in presets apply instead, and
 * the report says why. With `--trust-repo-config`, a config whose copy in the working tree
 * is the committed one, unchanged, is loaded from there, so that the rules and presets it
 * names resolve from the project's folder as they do for `check`.
 */
export async function auditConfig(repo: Repository, tipName: string, tip: GitFileView | null, given: ConfigChoice, cwd: string): Promise<AuditConfig> {
  // The preset given, and the importer of the host (the bin lends its loader's).
  const loading = { ...(given.preset === undefined ? {} : { preset: given.preset }), ...(given.importer === undefined ? {} : { importer: given.importer }) };
  if (given.config !== undefined) {
    const configFile = path.resolve(cwd, given.config);
    return { config: await loadReturnlintConfig({ cwd, configFile, ...loading }), source: path.relative(cwd, configFile) || configFile, kind: "given", refused: null, unapplied: null };
  }
  const committed = tip === null ? null : await committedConfig(tip);
  const inWorkingTree = repo.bare ? null : workingConfig(repo.root);
  const unapplied = inWorkingTree === null || (committed !== null && inWorkingTree.name === committed.name && inWorkingTree.text === committed.text) ? null : shown(cwd, path.join(repo.root, inWorkingTree.name));
  const builtin = async (refused: string | null): Promise<AuditConfig> => ({ config: await fromCopy(null, loading, tipName), source: null, kind: "builtin", refused, unapplied });
  if (committed === null) return builtin(null);
  const source = `${tipName}:${committed.name}`;
  if (given.trustRepoConfig !== true) {
    if (JAVASCRIPT.test(committed.name)) return builtin(`${source} is JavaScript`);
    const config = await fromCopy(committed, { ...loading, dataOnly: true }, source);
    const modules = config.refused ?? [];
    if (modules.length > 0) return builtin(`${source} names ${modules.join(", ")}, ${modules.length === 1 ? "a module" : "modules"}`);
    return { config, source, kind: "data", refused: null, unapplied };
  }
  const working = path.join(repo.root, committed.name);
  if (!repo.bare && sameContent(working, committed.text)) {
    // package.json is found by discovery, which takes a returnlint.config.* first: there is none at the root (HEAD's would have been found first).
    const shadowed = committed.name === MANIFEST && CONFIG_FILES.some((name) => existsSync(path.join(repo.root, name)));
    if (!shadowed) {
      const where = committed.name === MANIFEST ? {} : { configFile: working };
      return { config: await loadReturnlintConfig({ cwd: repo.root, ...where, ...loading }), source, kind: "trusted", refused: null, unapplied };
    }
  }
  if (JAVASCRIPT.test(committed.name)) {
    throw new ReturnlintError(
      "USAGE",
      `The config committed at ${source} is JavaScript, and returnlint audit runs a config's code only from a working tree whose copy matches the commit. Run the audit in an up-to-date clone, or pass --config FILE or --preset NAME.`,
    );
  }
  return { config: await fromCopy(committed, loading, source), source, kind: "trusted", refused: null, unapplied };
}

/** The config discovery finds at the root of the working tree (the first of CONFIG_FILES, else package.json's "returnlint"), or null. */
function workingConfig(root: string): { name: string; text: string } | null {
  for (const name of [...CONFIG_FILES, MANIFEST]) {
    const text = readText(path.join(root, name));
    if (text === null) continue;
    if (name !== MANIFEST || hasConfigKey(text)) return { name, text };
  }
  return null;
}

/** A path as the user would pass it to --config from `cwd`. */
function shown(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

/** The first config file at the root of the tip's tree, as discovery would find it there. */
async function committedConfig(tip: GitFileView): Promise<{ name: string; text: string } | null> {
  const names = [...CONFIG_FILES, MANIFEST];
  await tip.prefetch(names);
  for (const name of names) {
    if (!tip.check(name).ok) continue;
    const text = await readThrough(tip, name);
    if (text === null) continue;
    if (name !== MANIFEST || hasConfigKey(text)) return { name, text };
  }
  return null;
}

function hasConfigKey(manifest: string): boolean {
  try {
    const value = JSON.parse(manifest) as unknown;
    return isObject(value) && "returnlint" in value;
  } catch {
    // A package.json that is not JSON holds no config, as discovery sees it.
    return false;
  }
}

async function readThrough(view: GitFileView, name: string): Promise<string | null> {
  for (let round = 0; round < 4; round += 1) {
    const text = view.read(name, MAX_CONFIG_BYTES);
    if (text !== null || !(await view.loadMissing())) return text;
  }
  return null;
}

function sameContent(file: string, text: string): boolean {
  return readText(file) === text;
}

/**
 * A file of the working tree, through core's safe layer: a regular file only (a FIFO planted
 * there would block a plain read for ever, `/dev/zero` would never end), at most
 * MAX_CONFIG_BYTES; null for anything else.
 */
function readText(file: string): string | null {
  const data = readPath(file, MAX_CONFIG_BYTES + 1, () => true);
  return data === null || data.length > MAX_CONFIG_BYTES ? null : data.toString("utf8");
}

/**
 * Loads a committed config from a copy in a fresh temporary folder (removed at
 * once), or the built-in presets when there is none. Rules and presets the config
 * names by path or package cannot resolve there: the error says what to do.
 */
async function fromCopy(committed: { name: string; text: string } | null, loading: { preset?: string; importer?: Importer; dataOnly?: boolean }, source: string): Promise<LoadedConfig> {
  const folder = mkdtempSync(path.join(tmpdir(), "returnlint-audit-config-"));
  try {
    const name = committed?.name ?? CONFIG_FILES[0];
    writeFileSync(path.join(folder, name), committed?.text ?? "{}\n");
    const where = name === MANIFEST ? {} : { configFile: path.join(folder, name) };
    return await loadReturnlintConfig({ cwd: folder, ...where, ...loading });
  } catch (error) {
    if (!isReturnlintError(error) || committed === null) throw error;
    throw new ReturnlintError(error.code, `${error.message.replace(folder + path.sep, "").replaceAll(folder, ".")} (read from ${source})`, [
      ...error.problems.map((problem) => problem.replaceAll(folder, ".")),
      ...(loading.dataOnly === true
        ? []
        : [
            `audit read this config from git, not from a working tree: rules and presets it names by path or package resolve only in a clone whose working tree holds the same config, with its dependencies installed (or pass --config FILE).`,
          ]),
    ]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
