/**
 * Where a return's claims are, and what it claims there: the files it says it produced, the
 * session it answers, whether it says its work is finished. The built-in formats keep them in
 * fixed fields (`artifacts`, `status`); a project's contract says where with its annotations
 * (contract.ts). The runner works the claims out once per return; every rule that looks at
 * the world reads them from its context, and so does a custom rule.
 */
import { escapeToken, isObject, tokensOf, valueAt } from "./pointer.js";

/** When a return's claims count: the value at `pointer` is one of `values` (a contract's `x-returnlint-success`). */
export interface SuccessClaim {
  readonly pointer: string;
  readonly values: readonly string[];
}

/** Where a return's claims are. */
export interface ClaimMap {
  /**
   * Where artifact paths are, as pointers in which `*` stands for any index of an array (or
   * key of an object): `/artifacts/*` and `/artifacts/*\/path` for the formats, `/proof/paths/*`
   * for a contract that says so.
   */
  readonly artifacts: readonly string[];
  /**
   * The list of artifact entries (`{"type", "path", "summary"}` objects) whose shape the
   * artifacts rule checks: the formats' `/artifacts`. None for a contract, whose schema says
   * what an entry looks like.
   */
  readonly artifactEntries?: string;
  /** Where the session id is (a contract's `session-id`); the formats say it with session-id's `field` option. */
  readonly sessionId?: string;
  /** When the claims count. None: the formats' status vocabulary decides, or, under a contract, they always count. */
  readonly success?: SuccessClaim;
  /** Where a contract claims commands it ran (`command`) and tests that passed (`test`), for rules that check them against a transcript. */
  readonly commands: readonly string[];
  readonly tests: readonly string[];
}

/** The claims of the built-in formats: artifacts as bare paths or objects' `path`, in `/artifacts`. */
export const FORMAT_CLAIMS: ClaimMap = { artifacts: ["/artifacts/*", "/artifacts/*/path"], artifactEntries: "/artifacts", commands: [], tests: [] };

/** One path a return claims to have produced. */
export interface ClaimedArtifact {
  readonly path: string;
  /** Where the path is: `/artifacts/0/path`, `/proof/paths/0`. */
  readonly pointer: string;
  /** The entry that names it: the object whose property it is (`/artifacts/0`), else the path itself. */
  readonly entry: string;
  /** Its position in its list (the last array index on the way to it; 0 when none). */
  readonly index: number;
  /** The entry's own `type` (`report`, `plan`), when it is an object that gives one. */
  readonly type?: string;
}

/** What one return claims, where the map says. */
export interface Claims {
  /**
   * Every artifact path, in the order the return gives them. A return that names a few (at most
   * KEPT_ARTIFACTS) has them made once, at the first read, and kept: several rules and the facts
   * read them. One that names more has them walked from the return each time they are read: a
   * return that names a million files costs no million objects kept.
   */
  readonly artifacts: Iterable<ClaimedArtifact>;
  /** How many artifact paths the return gives. */
  readonly artifactCount: number;
  /**
   * The list the artifacts are given in (the first array on the way to them that the return
   * holds), for what is said of the list as a whole: that it names no file. Undefined when the
   * return holds no such list; then there is nothing to check.
   */
  readonly artifactList: string | undefined;
  /** The formats' list of artifact entries, whose shape the artifacts rule checks; undefined under a contract. */
  readonly entries: readonly unknown[] | undefined;
  /** The status the claims hang on (the success pointer's value, else `status`), when it is a string. */
  readonly status: string | null;
  /**
   * Under a contract: whether the claims count (its success status given, or no success declared:
   * always). Undefined for the formats, whose status vocabulary and rule options decide.
   */
  readonly counted: boolean | undefined;
  /** Where the session id is, when the map says (a contract); else the session-id rule's option. */
  readonly sessionId: string | undefined;
  /** The map these claims were read with. */
  readonly map: ClaimMap;
  /** True when a contract's annotations gave the map. */
  readonly fromContract: boolean;
}

/**
 * A claim map's artifact templates as a tree, built once per map: each step a key, or `*` for any
 * item (or key); `ends` where a template ends, so that a string there is a path.
 */
interface Step {
  ends: boolean;
  any: Step | undefined;
  readonly keys: Map<string, Step>;
  /** For a key that both `*` and the key itself lead on from: the two merged, made on first use. */
  readonly merged: Map<string, Step>;
}

const emptyStep = (): Step => ({ ends: false, any: undefined, keys: new Map(), merged: new Map() });

const trees = new WeakMap<ClaimMap, Step>();

function treeOf(map: ClaimMap): Step {
  let tree = trees.get(map);
  if (tree === undefined) {
    tree = emptyStep();
    for (const template of map.artifacts) {
      let step = tree;
      for (const token of tokensOf(template)) {
        if (token === "*") step = step.any ??= emptyStep();
        else {
          let next = step.keys.get(token);
          if (next === undefined) {
            next = emptyStep();
            step.keys.set(token, next);
          }
          step = next;
        }
      }
      step.ends = true;
    }
    trees.set(map, tree);
  }
  return tree;
}

/** Where `key` leads from `step`: `*`, the key itself, or both merged. */
function stepFor(step: Step, key: string): Step | undefined {
  const named = step.keys.size === 0 ? undefined : step.keys.get(key);
  if (named === undefined) return step.any;
  if (step.any === undefined) return named;
  let merged = step.merged.get(key);
  if (merged === undefined) {
    merged = mergeSteps(step.any, named);
    step.merged.set(key, merged);
  }
  return merged;
}

function mergeSteps(first: Step, second: Step): Step {
  const any = first.any === undefined ? second.any : second.any === undefined ? first.any : mergeSteps(first.any, second.any);
  const keys = new Map(first.keys);
  for (const [key, step] of second.keys) {
    const other = keys.get(key);
    keys.set(key, other === undefined ? step : mergeSteps(other, step));
  }
  return { ends: first.ends || second.ends, any, keys, merged: new Map() };
}

const hasChildren = (step: Step): boolean => step.any !== undefined || step.keys.size > 0;

/** What `value` claims where `map` says; `fromContract`: the map is a contract's. */
export function claimsOf(value: unknown, map: ClaimMap, fromContract: boolean): Claims {
  return new ReturnClaims(value, map, fromContract);
}

/**
 * How many artifact paths a return may name for them to be kept once made: every return a
 * subagent writes names a handful, and each is read by the artifacts rule (three times), the
 * other rules that look at files, and the facts.
 */
const KEPT_ARTIFACTS = 64;

class ReturnClaims implements Claims {
  readonly artifactCount: number;
  readonly artifactList: string | undefined;
  readonly entries: readonly unknown[] | undefined;
  readonly status: string | null;
  readonly counted: boolean | undefined;
  readonly sessionId: string | undefined;
  readonly #value: unknown;
  readonly #tree: Step;
  /** The formats' list the paths are read straight from (listInFormat), when the return gives one. */
  readonly #listed: readonly unknown[] | undefined;
  #kept: readonly ClaimedArtifact[] | undefined;

  constructor(
    value: unknown,
    readonly map: ClaimMap,
    readonly fromContract: boolean,
  ) {
    this.#value = value;
    this.#tree = treeOf(map);
    const listed = map === FORMAT_CLAIMS ? listInFormat(value) : undefined;
    this.#listed = listed;
    if (listed === undefined) {
      const { count, list } = survey(value, this.#tree);
      this.artifactCount = count;
      this.artifactList = list;
    } else {
      // Counted now, made at the first read: a return whose rules look at no file (artifacts off) makes none.
      this.artifactCount = countInList(listed);
      this.artifactList = FORMAT_CLAIMS.artifactEntries;
    }
    const status = valueAt(value, map.success?.pointer ?? "/status");
    const entries = map.artifactEntries === undefined ? undefined : (listed ?? valueAt(value, map.artifactEntries));
    this.entries = Array.isArray(entries) ? entries : undefined;
    this.status = typeof status === "string" ? status : null;
    this.counted = fromContract ? map.success === undefined || (typeof status === "string" && map.success.values.includes(status)) : undefined;
    this.sessionId = map.sessionId;
  }

  get artifacts(): Iterable<ClaimedArtifact> {
    if (this.#kept !== undefined) return this.#kept;
    if (this.#listed !== undefined) {
      this.#kept = claimedInList(this.#listed);
      return this.#kept;
    }
    const value = this.#value;
    const tree = this.#tree;
    if (this.artifactCount <= KEPT_ARTIFACTS) {
      this.#kept = Object.freeze(Array.from(new ArtifactWalk(value, tree)));
      return this.#kept;
    }
    return { [Symbol.iterator]: () => new ArtifactWalk(value, tree) };
  }
}

/**
 * The formats' list of artifact entries, when the return's `artifacts` is a list of at most
 * KEPT_ARTIFACTS entries (every return a subagent writes): its paths are read straight from the
 * list, as the walk would find them and in its order. Nearly every return is read with this map,
 * and a walk of its templates costs more than the rules that read the claims. Undefined for any
 * other return: the walk reads it.
 */
function listInFormat(value: unknown): readonly unknown[] | undefined {
  if (!isObject(value) || !isOwnField(value, "artifacts")) return undefined;
  const entries = value.artifacts;
  return Array.isArray(entries) && entries.length <= KEPT_ARTIFACTS ? entries : undefined;
}

/** The path an entry of the formats' list names: an entry that is a string is one, an object's own string `path` is one, anything else names none. */
function pathOfEntry(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  return isObject(entry) && isOwnField(entry, "path") && typeof entry.path === "string" ? entry.path : undefined;
}

function countInList(entries: readonly unknown[]): number {
  let count = 0;
  for (const entry of entries) if (pathOfEntry(entry) !== undefined) count += 1;
  return count;
}

/** The paths of the formats' list: a string entry at `/artifacts/0`, an object's at `/artifacts/0/path`, with the object's `type`. */
function claimedInList(entries: readonly unknown[]): readonly ClaimedArtifact[] {
  const claimed: ClaimedArtifact[] = [];
  for (let index = 0; index < entries.length; index += 1) {
    const entry: unknown = entries[index];
    const path = pathOfEntry(entry);
    if (path === undefined) continue;
    const holder = `/artifacts/${String(index)}`;
    if (typeof entry === "string") claimed.push({ path, pointer: holder, entry: holder, index });
    else {
      const pointer = `${holder}/path`;
      const type = (entry as Record<string, unknown>).type;
      claimed.push(typeof type === "string" ? { path, pointer, entry: holder, index, type } : { path, pointer, entry: holder, index });
    }
  }
  return Object.freeze(claimed);
}

/** A field the walk goes into: an own, enumerable one (`Object.keys`). */
function isOwnField(holder: Record<string, unknown>, key: string): boolean {
  return Object.prototype.propertyIsEnumerable.call(holder, key);
}

/**
 * How many paths the return gives, and the first list on the way to them (the first array a
 * template reaches into, whether or not it holds a path): one walk, nothing made per path.
 */
function survey(value: unknown, tree: Step): { count: number; list: string | undefined } {
  let count = 0;
  let list: string | undefined;
  const visit = (node: unknown, step: Step, tokens: string[]): void => {
    if (typeof node === "string") {
      if (step.ends) count += 1;
      return;
    }
    if (!hasChildren(step)) return;
    if (Array.isArray(node)) {
      if (list === undefined && step.any !== undefined) list = pointerOfTokens(tokens);
      for (let position = 0; position < node.length; position += 1) {
        const next = step.keys.size === 0 ? step.any : stepFor(step, String(position));
        if (next === undefined) continue;
        tokens.push(String(position));
        visit(node[position], next, tokens);
        tokens.pop();
      }
    } else if (isObject(node)) {
      for (const key of Object.keys(node)) {
        const next = stepFor(step, key);
        if (next === undefined) continue;
        tokens.push(key);
        visit(node[key], next, tokens);
        tokens.pop();
      }
    }
  };
  visit(value, tree, []);
  return { count, list };
}

/** One place of the walk: a list or an object being gone through, and how far. */
interface Frame {
  readonly node: readonly unknown[] | Record<string, unknown>;
  readonly step: Step;
  readonly keys: readonly string[] | undefined;
  position: number;
}

/**
 * The paths of a return, in its order, one at a time: an explicit stack rather than a recursive
 * generator, so that a list of a million entries costs a million small steps and nothing kept.
 */
class ArtifactWalk implements Iterator<ClaimedArtifact> {
  readonly #frames: Frame[] = [];
  readonly #tokens: string[] = [];
  #start: { readonly value: unknown; readonly tree: Step } | undefined;

  constructor(value: unknown, tree: Step) {
    this.#start = { value, tree };
  }

  next(): IteratorResult<ClaimedArtifact> {
    if (this.#start !== undefined) {
      const { value, tree } = this.#start;
      this.#start = undefined;
      const found = this.#enter(value, tree, undefined, 0);
      if (found !== undefined) return { done: false, value: found };
    }
    for (;;) {
      const frame = this.#frames.at(-1);
      if (frame === undefined) return { done: true, value: undefined };
      const { node, step, keys } = frame;
      if (keys === undefined) {
        const items = node as readonly unknown[];
        if (frame.position >= items.length) {
          this.#leave();
          continue;
        }
        const position = frame.position;
        frame.position += 1;
        const next = step.keys.size === 0 ? step.any : stepFor(step, String(position));
        if (next === undefined) continue;
        this.#tokens.push(String(position));
        const found = this.#enter(items[position], next, undefined, position);
        if (found !== undefined) return { done: false, value: found };
      } else {
        if (frame.position >= keys.length) {
          this.#leave();
          continue;
        }
        const key = keys[frame.position] ?? "";
        frame.position += 1;
        const next = stepFor(step, key);
        if (next === undefined) continue;
        const holder = node as Record<string, unknown>;
        this.#tokens.push(key);
        const found = this.#enter(holder[key], next, holder, this.#index());
        if (found !== undefined) return { done: false, value: found };
      }
    }
  }

  [Symbol.iterator](): Iterator<ClaimedArtifact> {
    return this;
  }

  /** Steps onto `node`: a path to give (its token popped again), a frame pushed, or nothing to see there. */
  #enter(node: unknown, step: Step, holder: Record<string, unknown> | undefined, index: number): ClaimedArtifact | undefined {
    if (typeof node === "string") {
      const found = step.ends ? claimed(node, this.#tokens, holder, index) : undefined;
      this.#tokens.pop();
      return found;
    }
    if (hasChildren(step) && Array.isArray(node)) this.#frames.push({ node, step, keys: undefined, position: 0 });
    else if (hasChildren(step) && isObject(node)) this.#frames.push({ node, step, keys: Object.keys(node), position: 0 });
    else this.#tokens.pop();
    return undefined;
  }

  #leave(): void {
    this.#frames.pop();
    this.#tokens.pop();
  }

  /** The index of the innermost list being gone through (0 outside any). */
  #index(): number {
    for (let depth = this.#frames.length - 1; depth >= 0; depth -= 1) {
      const frame = this.#frames[depth];
      if (frame?.keys === undefined) return (frame?.position ?? 1) - 1;
    }
    return 0;
  }
}

function claimed(path: string, tokens: readonly string[], holder: Record<string, unknown> | undefined, index: number): ClaimedArtifact {
  const pointer = pointerOfTokens(tokens);
  const type = holder !== undefined && typeof holder.type === "string" ? holder.type : undefined;
  const entry = holder === undefined ? pointer : pointer.slice(0, pointer.lastIndexOf("/"));
  return type === undefined ? { path, pointer, entry, index } : { path, pointer, entry, index, type };
}

function pointerOfTokens(tokens: readonly string[]): string {
  let pointer = "";
  for (const token of tokens) pointer += `/${token.includes("~") || token.includes("/") ? token.replace(/~/g, "~0").replace(/\//g, "~1") : token}`;
  return pointer;
}

/** A value a return gives where a pointer template (`*` for any item or key) says a claim is. */
export interface ClaimedValue {
  readonly pointer: string;
  readonly value: unknown;
}

/**
 * The values at each template's places, in the return's order, each place once: the commands
 * and tests a contract's annotations point at, or the well-known fields a rule looks in.
 */
export function claimedValues(value: unknown, templates: readonly string[]): ClaimedValue[] {
  const found: ClaimedValue[] = [];
  const seen = new Set<string>();
  const walk = (at: unknown, tokens: readonly string[], pointer: string): void => {
    if (tokens.length === 0) {
      if (!seen.has(pointer)) {
        seen.add(pointer);
        found.push({ pointer, value: at });
      }
      return;
    }
    const [token, ...rest] = tokens as [string, ...string[]];
    if (token === "*") {
      if (Array.isArray(at)) at.forEach((item, index) => { walk(item, rest, `${pointer}/${String(index)}`); });
      else if (isObject(at)) for (const [key, item] of Object.entries(at)) walk(item, rest, `${pointer}/${escapeToken(key)}`);
      return;
    }
    if (Array.isArray(at) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < at.length) walk(at[Number(token)], rest, `${pointer}/${token}`);
    else if (isObject(at) && Object.hasOwn(at, token)) walk(at[token], rest, `${pointer}/${escapeToken(token)}`);
  };
  for (const template of templates) walk(value, tokensOf(template), "");
  return found;
}
