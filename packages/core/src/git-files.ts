import path from "node:path";
import type { GitObjectReader } from "./git-objects.js";
import type { FileCheck, FileProblem, FileView } from "./types.js";

const WINDOWS_ABSOLUTE = /^(?:[a-zA-Z]:[\\/]|\\\\)/;
const HOME_RELATIVE = /^~[^/]*(?:\/|$)/;
const PATH_MAX = 4096;
const NAME_MAX = 255;
/** Linux follows at most 40 symlinks in one path (MAXSYMLINKS); so does this view. */
const MAX_LINKS = 40;
/** The longest symlink target read: a link is a path, PATH_MAX at most. */
const MAX_LINK_BYTES = PATH_MAX;

/**
 * A path that no file view can resolve, whatever the tree: the same lexical rules as
 * the disk view (files.ts), so that a return gets the same verdict on disk and in git.
 */
export function lexicalProblem(given: string): FileProblem | undefined {
  if (given === "") return "emptyPath";
  if (given.includes("\0")) return "nulByte";
  if (path.posix.isAbsolute(given) || WINDOWS_ABSOLUTE.test(given) || HOME_RELATIVE.test(given)) return "absolute";
  const normalized = path.posix.normalize(given);
  if (normalized === ".." || normalized.startsWith("../")) return "escapesRoot";
  if (normalized.length >= NAME_MAX / 4 && (Buffer.byteLength(normalized) >= PATH_MAX || normalized.split("/").some((name) => Buffer.byteLength(name) > NAME_MAX))) {
    return "nameTooLong";
  }
  return undefined;
}

/** One entry of a tree object: its mode as git writes it (`100644`, `40000`, `120000`, `160000`, …) and its object id. */
export interface GitTreeEntry {
  readonly mode: string;
  readonly oid: string;
}

/** The most names `list` gives for one folder, as the disk view. */
const MAX_FOLDER_NAMES = 1000;

/** Trees asked for more names than this are indexed; the others are searched where they lie. */
const INDEX_AFTER = 8;

/**
 * A tree object: entries of `<mode> <name>\0<object id, raw bytes>`. Most trees an
 * audit reads are looked at for one or two names (the `specs/` folder of each commit,
 * a thousand entries that change with every commit), so a lookup walks the entries in
 * place, decoding only the one it finds; a tree asked often gets an index.
 */
export class GitTree {
  private index: Map<string, GitTreeEntry> | undefined;
  /** The names looked up so far, before there is an index: a path is resolved many times while its return is checked. */
  private readonly found = new Map<string, GitTreeEntry | undefined>();

  constructor(
    private readonly data: Buffer,
    private readonly hashBytes: number,
  ) {}

  /** What the tree takes in memory, about. */
  get bytes(): number {
    return this.data.length;
  }

  get(name: string): GitTreeEntry | undefined {
    if (this.index !== undefined) return this.index.get(name);
    if (this.found.has(name)) return this.found.get(name);
    if (this.found.size >= INDEX_AFTER) {
      this.index = new Map(this.entries());
      this.found.clear();
      return this.index.get(name);
    }
    const entry = this.search(name);
    this.found.set(name, entry);
    return entry;
  }

  private search(name: string): GitTreeEntry | undefined {
    const { data, hashBytes } = this;
    // An entry's name is followed by a NUL: where `name\0` is nowhere in the tree's bytes, no entry is named so
    // (one search in native code, where the walk below decodes every entry of a large folder).
    const wanted = Buffer.from(`${name}\0`, "utf8");
    if (data.indexOf(wanted) === -1) return undefined;
    const length = wanted.length - 1;
    for (let at = 0; at < data.length; ) {
      const space = data.indexOf(0x20, at);
      const nul = space === -1 ? -1 : data.indexOf(0, space + 1);
      if (nul === -1 || nul + 1 + hashBytes > data.length) return undefined;
      if (nul - space - 1 === length && data.compare(wanted, 0, length, space + 1, nul) === 0) return this.entryAt(at, space, nul);
      at = nul + 1 + hashBytes;
    }
    return undefined;
  }

  *entries(): Generator<[string, GitTreeEntry]> {
    for (const [start, space, nul] of this.boundaries()) yield [this.data.toString("utf8", space + 1, nul), this.entryAt(start, space, nul)];
  }

  private entryAt(start: number, space: number, nul: number): GitTreeEntry {
    return { mode: this.data.toString("latin1", start, space), oid: this.data.toString("hex", nul + 1, nul + 1 + this.hashBytes) };
  }

  /** Where each entry's mode starts, its space and its name's closing NUL. */
  private *boundaries(): Generator<[number, number, number]> {
    const { data, hashBytes } = this;
    for (let at = 0; at < data.length; ) {
      const space = data.indexOf(0x20, at);
      const nul = space === -1 ? -1 : data.indexOf(0, space + 1);
      if (nul === -1 || nul + 1 + hashBytes > data.length) return;
      yield [at, space, nul];
      at = nul + 1 + hashBytes;
    }
  }
}

/**
 * What a view learns about an object, by kind: null when the repository has no such object of that
 * kind. Each is kept by object id, but `folder`, kept by `<tree>:<path>`.
 */
export interface GitObjectFacts {
  readonly tree: GitTree | null;
  /** A blob's size. */
  readonly size: number | null;
  /** A symlink's target. */
  readonly link: string | null;
  /** The tree that a path of folders names in a tree, and its size, as git resolves `<tree>:<path>` (folders only, no link followed); null when it names no tree. */
  readonly folder: { readonly oid: string; readonly size: number } | null;
}

type FactKind = keyof GitObjectFacts;
type FactMaps = { [K in FactKind]: Map<string, GitObjectFacts[K]> };

const factMaps = (): FactMaps => ({ tree: new Map(), size: new Map(), link: new Map(), folder: new Map() });

/**
 * Trees, blob sizes and symlink targets by object id, and the trees of folder paths by
 * tree and path, shared by the views of one repository. Objects are content-addressed,
 * so nothing here ever goes stale: a folder that did not change between two commits is
 * the same tree and is read once.
 * Bounded: trees by their bytes, least recently used first out; sizes and targets by
 * count. What is dropped is read again if asked for.
 */
export class GitObjectCache {
  private readonly facts = factMaps();
  private treeBytes = 0;

  constructor(
    readonly objects: GitObjectReader,
    private readonly maxTreeBytes = 4 * 1024 * 1024,
    private readonly maxFacts = 100_000,
  ) {}

  get<K extends FactKind>(kind: K, oid: string): GitObjectFacts[K] | undefined {
    const map = this.facts[kind] as Map<string, GitObjectFacts[K]>;
    const value = map.get(oid);
    if (value !== undefined && kind === "tree") {
      // Most recently used last: Map keeps insertion order.
      map.delete(oid);
      map.set(oid, value);
    }
    return value;
  }

  set<K extends FactKind>(kind: K, oid: string, value: GitObjectFacts[K]): void {
    const map = this.facts[kind] as Map<string, GitObjectFacts[K]>;
    if (kind !== "tree") {
      if (map.size >= this.maxFacts) map.clear();
      map.set(oid, value);
      return;
    }
    const trees = this.facts.tree;
    const bytes = (tree: GitTree | null) => (tree?.bytes ?? 0) + 64;
    trees.set(oid, value as GitTree | null);
    this.treeBytes += bytes(value as GitTree | null);
    for (const [old, tree] of trees) {
      if (this.treeBytes <= this.maxTreeBytes || old === oid) break;
      trees.delete(old);
      this.treeBytes -= bytes(tree);
    }
  }
}

export interface GitFileViewOptions {
  /** What this view reads objects through; share one between the views of a repository. */
  readonly cache: GitObjectCache;
  /** The commit whose tree this view shows. */
  readonly commit: string;
  /** That commit's root tree. */
  readonly tree: string;
  /** What `root` says: the repository's top-level folder (or, for a bare repository, its git directory). */
  readonly root: string;
  /** The `mtimeMs` every file reports: git keeps no file times, so the time of the commit. */
  readonly mtimeMs: number;
}

/**
 * A file view over one commit's tree: rules ask it what they ask the disk view, and
 * get the same kind of answer. A path is a file when the tree holds it as a blob
 * (not a tree, not a submodule); a symlink is followed within the tree, and one that
 * leads out of it (an absolute target, or `..` above the root) is `symlinkEscapesRoot`.
 *
 * `check`, `read` and `list` are synchronous, as the FileView contract says, and git is a
 * process: they answer from the trees, sizes and contents this view has loaded.
 * `prefetch(paths)` loads what the given paths need before the rules run (a return's
 * artifact paths); every path `check`, `read` or `list` had to answer without (reported as
 * `unreadable`) is remembered, and `loadMissing()` loads all that path needs, to its end,
 * and says whether there was any, so that the caller runs the rules again on complete
 * answers: a second round sees every path of the commit a first round asked about.
 */
export interface GitFileView extends FileView {
  readonly commit: string;
  /** Loads every tree, size and symlink target that checking these paths needs. */
  prefetch(paths: Iterable<string>): Promise<void>;
  /** Loads what `check`, `read` and `list` missed since the last call, each path to its end; false when they missed nothing. */
  loadMissing(): Promise<boolean>;
}

/** What git is asked for: a fact of an object (`name` its id; a folder's `<tree>:<path>`), or at most `maxBytes` of a blob's content. */
type Need = { readonly kind: FactKind; readonly name: string } | { readonly kind: "content"; readonly name: string; readonly maxBytes: number };

/** A path resolved as far as what is loaded allows: an answer (with the blob or the folder's tree it found), or what is missing. */
type Resolution = { readonly check: FileCheck; readonly blob?: string; readonly folder?: string } | { readonly need: Need };

const NOT_LOADED = "not loaded";

/** A folder whose tree is this small is walked from when it is known, rather than git asked for the folders below it: a few hundred names. */
const SMALL_TREE_BYTES = 16 * 1024;

export function createGitFileView(options: GitFileViewOptions): GitFileView {
  const { cache, commit, root, mtimeMs } = options;
  const objects = cache.objects;
  // What this view loaded: kept for as long as the view lives, whatever the shared cache evicts.
  const own = factMaps();
  const contents = new Map<string, Buffer | null>();
  const missed = new Map<string, Need>();
  /** The paths `check`, `read` and `list` could not answer: each is resolved to the end when the misses are loaded. */
  const missedPaths = new Set<string>();

  /** What this view knows of an object, or what the shared cache does (kept from then on); undefined when neither was told. */
  function known<K extends FactKind>(kind: K, oid: string): GitObjectFacts[K] | undefined {
    const map = own[kind] as Map<string, GitObjectFacts[K]>;
    let value = map.get(oid);
    if (value === undefined) {
      value = cache.get(kind, oid);
      if (value !== undefined) map.set(oid, value);
    }
    return value;
  }

  const read: { readonly [K in FactKind]: (oid: string) => Promise<GitObjectFacts[K]> } = {
    async tree(oid) {
      const object = await objects.contents(oid);
      return object?.type === "tree" ? new GitTree(object.data, oid.length / 2) : null;
    },
    async size(oid) {
      const info = await objects.info(oid);
      return info?.type === "blob" ? info.size : null;
    },
    async link(oid) {
      const object = await objects.contents(oid, MAX_LINK_BYTES + 1);
      return object?.type === "blob" && object.size <= MAX_LINK_BYTES ? object.data.toString("utf8") : null;
    },
    async folder(treeAndPath) {
      const info = await objects.info(treeAndPath);
      return info?.type === "tree" ? { oid: info.oid, size: info.size } : null;
    },
  };

  async function learn(kind: FactKind, name: string): Promise<void> {
    let value = cache.get(kind, name);
    if (value === undefined) {
      value = await read[kind](name);
      cache.set(kind, name, value);
    }
    (own[kind] as Map<string, GitObjectFacts[FactKind]>).set(name, value);
  }

  /** The paths answered so far: the rules and the facts ask about one path many times, and a commit's tree never changes. */
  const answered = new Map<string, Resolution>();

  function resolve(given: string): Resolution {
    let resolution = answered.get(given);
    if (resolution === undefined) {
      resolution = resolveNow(given);
      if ("check" in resolution) answered.set(given, resolution);
    }
    return resolution;
  }

  function resolveNow(given: string): Resolution {
    const lexical = lexicalProblem(given);
    if (lexical !== undefined) return { check: { ok: false, problem: lexical, path: given } };
    const normalized = path.posix.normalize(given);
    // `real.md/.` names a folder as `real.md/` does (the disk view's `directory`), though normalize drops its `/.`.
    const names = (/\/\.?$/.test(given) && !normalized.endsWith("/") ? `${normalized}/` : normalized).split("/");
    const start = folderOfPath(names);
    return "need" in start ? start : walk(given, names, start);
  }

  /** Whether git can be asked for the folders of a path of these names (`<tree>:a/b`): a name with a line break cannot be sent, and `.` and `..` are the walk's. */
  function askable(names: readonly string[]): boolean {
    return !names.some((name) => name === "." || name === ".." || name.includes("\n") || name.includes("\r"));
  }

  const folderName = (names: readonly string[], depth: number): string => `${options.tree}:${names.slice(0, depth).join("/")}`;

  /**
   * Where the walk of a path's names starts, and how many names that skips: the deepest folder on
   * its way that git names as a tree (`<tree>:specs/042_slug/reports`), or a small one above it
   * that is known already (the folder a return's paths share, `prefetch` asks for it first); the
   * root when none is. Git then searches the trees on the way, which the view never reads: a
   * folder of a thousand tasks changes with every commit, and a history would read it at every
   * version. Folders are asked for deepest first: one that names no tree sends the question a
   * folder up.
   */
  function folderOfPath(names: readonly string[]): { readonly tree: string; readonly depth: number } | { readonly need: Need } {
    const folders = names.length - 1;
    if (folders < 1 || !askable(names)) return { tree: options.tree, depth: 0 };
    /** The deepest folder not asked for yet below which nothing is known not to be a folder. */
    let ask: string | undefined;
    for (let depth = folders; depth >= 1; depth -= 1) {
      const name = folderName(names, depth);
      const folder = known("folder", name);
      if (folder === undefined) {
        ask ??= name;
      } else if (folder === null) {
        // Nothing below what is not a folder is one: the question goes a folder up.
        ask = undefined;
      } else if (ask === undefined || folder.size <= SMALL_TREE_BYTES) {
        // The deepest folder (nothing below it is one), or a small one: below it the walk reads a few small trees, where git would search the large ones above it again.
        return { tree: folder.oid, depth };
      } else {
        break;
      }
    }
    return ask === undefined ? { tree: options.tree, depth: 0 } : { need: { kind: "folder", name: ask } };
  }

  /** The deepest folder the paths share, asked for first when there are several: each path's walk then starts there, and git searches the trees above it once. */
  async function learnSharedFolder(paths: readonly string[]): Promise<void> {
    let shared: string[] | undefined;
    for (const given of paths) {
      if (lexicalProblem(given) !== undefined) continue;
      const names = path.posix.normalize(given).split("/").slice(0, -1);
      if (!askable(names)) return;
      if (shared === undefined) shared = names;
      let same = 0;
      while (same < shared.length && same < names.length && shared[same] === names[same]) same += 1;
      shared.length = same;
    }
    if (shared !== undefined && shared.length > 0) await learn("folder", folderName(shared, shared.length));
  }

  /** Resolves a path's names from `start` on, tree by tree, following links. */
  function walk(given: string, names: readonly string[], start: { readonly tree: string; readonly depth: number }): Resolution {
    const problem = (kind: FileProblem, extra?: string): Resolution => ({
      check: extra === undefined ? { ok: false, problem: kind, path: given } : { ok: false, problem: kind, path: given, kind: extra },
    });
    /** The trees from the start down to the current folder. */
    const folders = [start.tree];
    const queue = names.slice(start.depth);
    let followed = 0;
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      if (name === "" || name === ".") continue;
      if (name === "..") {
        if (folders.length === 1) {
          // A link's target climbs above the folder git named: walked again from the root, where the way up is known.
          if (start.depth > 0) return walk(given, names, { tree: options.tree, depth: 0 });
          // Only a symlink's target can climb (the path itself was normalized): above the root is outside the tree.
          return problem("symlinkEscapesRoot");
        }
        folders.pop();
        continue;
      }
      const folder = folders[folders.length - 1] ?? options.tree;
      const tree = known("tree", folder);
      if (tree === undefined) return { need: { kind: "tree", name: folder } };
      if (tree === null) return problem("unreadable");
      const entry = tree.get(name);
      if (entry === undefined) return problem("notFound");
      const last = queue.every((rest) => rest === "" || rest === ".");
      switch (kindOf(entry.mode)) {
        case "tree":
          folders.push(entry.oid);
          break;
        case "submodule":
          // A submodule's files are in another repository, not in this commit's tree.
          return problem("notAFile", last ? "submodule" : "path inside a submodule");
        case "symlink": {
          followed += 1;
          if (followed > MAX_LINKS) return problem("symlinkLoop");
          const target = known("link", entry.oid);
          if (target === undefined) return { need: { kind: "link", name: entry.oid } };
          if (target === null) return problem("unreadable");
          if (target === "") return problem("notFound");
          if (target.startsWith("/")) return problem("symlinkEscapesRoot");
          queue.unshift(...target.split("/"));
          break;
        }
        case "file": {
          // A file in the middle of a path is ENOTDIR to the kernel, and so is a file with a slash after it
          // (`real.md/`, `real.md/.`): not found, as the disk view says.
          if (queue.length > 0) return problem("notFound");
          const size = known("size", entry.oid);
          if (size === undefined) return { need: { kind: "size", name: entry.oid } };
          if (size === null) return problem("unreadable");
          return { check: { ok: true, kind: "file", size, mtimeMs, path: given }, blob: entry.oid };
        }
        case "other":
          return problem("notAFile", "special file");
      }
    }
    return { check: { ok: false, problem: "notAFile", path: given, kind: "directory" }, folder: folders[folders.length - 1] ?? options.tree };
  }

  async function load(need: Need): Promise<void> {
    if (need.kind !== "content") {
      await learn(need.kind, need.name);
      return;
    }
    const object = await objects.contents(need.name, need.maxBytes);
    contents.set(need.name, object?.type === "blob" ? object.data : null);
  }

  function miss(need: Need): void {
    const key = `${need.kind}\0${need.name}`;
    const earlier = missed.get(key);
    if (need.kind === "content" && earlier?.kind === "content" && earlier.maxBytes >= need.maxBytes) return;
    missed.set(key, need);
  }

  /**
   * Loads every tree, size and link target these paths need, however deep: a path is answered
   * from this commit's tree alone, whatever other returns of the commit loaded before it.
   */
  async function resolveToTheEnd(paths: Iterable<string>): Promise<void> {
    const all = [...new Set(paths)];
    const unanswered = all.filter((given) => !answered.has(given));
    if (unanswered.length > 1) await learnSharedFolder(unanswered);
    await Promise.all(
      all.map(async (given) => {
        // Each step loads one tree, size or link target on the way: a path has few.
        for (let step = 0; step < PATH_MAX; step += 1) {
          const resolved = resolve(given);
          if (!("need" in resolved)) {
            // A folder (`list`): its own tree too.
            if (resolved.folder !== undefined && known("tree", resolved.folder) === undefined) await learn("tree", resolved.folder);
            return;
          }
          await load(resolved.need);
        }
      }),
    );
  }

  const view: GitFileView = {
    root,
    commit,
    check(given) {
      const resolved = resolve(given);
      if ("check" in resolved) return resolved.check;
      missedPaths.add(given);
      return { ok: false, problem: "unreadable", path: given, kind: NOT_LOADED };
    },
    read(given, maxBytes) {
      const resolved = resolve(given);
      if (!("check" in resolved)) {
        missedPaths.add(given);
        return null;
      }
      if (!resolved.check.ok || resolved.blob === undefined) return null;
      const wanted = Math.min(maxBytes, resolved.check.size);
      const content = contents.get(resolved.blob);
      if (content === null) return null;
      if (content === undefined || (content.length < wanted && content.length < resolved.check.size)) {
        miss({ kind: "content", name: resolved.blob, maxBytes: wanted });
        return null;
      }
      return content.subarray(0, wanted).toString("utf8");
    },
    list(folder) {
      const resolved = folder === "" ? { check: { ok: false, problem: "notAFile", path: "", kind: "directory" } as const, folder: options.tree } : resolve(folder);
      if (!("check" in resolved)) {
        missedPaths.add(folder);
        return null;
      }
      if (resolved.folder === undefined) return null;
      const tree = known("tree", resolved.folder);
      if (tree === undefined) miss({ kind: "tree", name: resolved.folder });
      if (tree === undefined || tree === null) return null;
      const names: string[] = [];
      for (const [name] of tree.entries()) {
        if (names.length === MAX_FOLDER_NAMES) break;
        names.push(name);
      }
      return names.sort();
    },
    prefetch: resolveToTheEnd,
    async loadMissing() {
      if (missed.size === 0 && missedPaths.size === 0) return false;
      const needs = [...missed.values()];
      const paths = [...missedPaths];
      missed.clear();
      missedPaths.clear();
      await Promise.all(needs.map(load));
      await resolveToTheEnd(paths);
      return true;
    },
  };
  return view;
}

function kindOf(mode: string): "tree" | "file" | "symlink" | "submodule" | "other" {
  if (mode === "40000" || mode === "040000") return "tree";
  if (mode === "120000") return "symlink";
  if (mode === "160000") return "submodule";
  // 100644 and 100755, and the 100664 of very old repositories.
  if (mode.startsWith("100")) return "file";
  return "other";
}
