/**
 * Where a return's claims are, and what it claims there: the files it says it produced, the
 * session it answers, whether it says its work is finished. The built-in formats keep them in
 * fixed fields (`artifacts`, `status`); a project's contract says where with its annotations
 * (contract.ts). The runner works the claims out once per return; every rule that looks at
 * the world reads them from its context, and so does a custom rule.
 */
import { isObject, tokensOf, valueAt } from "./pointer.js";

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
  /** Every artifact path, in the order the return gives them. */
  readonly artifacts: readonly ClaimedArtifact[];
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

/** A claim map's artifact templates, each split once. */
const splitTemplates = new WeakMap<ClaimMap, readonly (readonly string[])[]>();

function templatesOf(map: ClaimMap): readonly (readonly string[])[] {
  let templates = splitTemplates.get(map);
  if (templates === undefined) {
    templates = map.artifacts.map((template) => tokensOf(template));
    splitTemplates.set(map, templates);
  }
  return templates;
}

/** What `value` claims where `map` says; `fromContract`: the map is a contract's. */
export function claimsOf(value: unknown, map: ClaimMap, fromContract: boolean): Claims {
  const artifacts: ClaimedArtifact[] = [];
  const lists: string[] = [];
  const templates = templatesOf(map);
  if (templates.length > 0) collect(value, "", undefined, 0, templates, 0, artifacts, lists);
  const statusPointer = map.success?.pointer ?? "/status";
  const status = valueAt(value, statusPointer);
  const entries = map.artifactEntries === undefined ? undefined : valueAt(value, map.artifactEntries);
  return {
    artifacts,
    artifactList: lists[0],
    entries: Array.isArray(entries) ? entries : undefined,
    status: typeof status === "string" ? status : null,
    counted: fromContract ? map.success === undefined || (typeof status === "string" && map.success.values.includes(status)) : undefined,
    sessionId: map.sessionId,
    map,
    fromContract,
  };
}

/**
 * Walks `node` along every template at once, so that the paths come out in the order the return
 * gives them whichever template finds each. `lists`: the pointers of the arrays on the way to an
 * artifact, the first one first.
 */
function collect(
  node: unknown,
  pointer: string,
  holder: Record<string, unknown> | undefined,
  index: number,
  templates: readonly (readonly string[])[],
  depth: number,
  out: ClaimedArtifact[],
  lists: string[],
): void {
  if (typeof node === "string") {
    if (templates.some((template) => template.length === depth)) {
      const type = holder !== undefined && typeof holder.type === "string" ? holder.type : undefined;
      const entry = holder === undefined ? pointer : pointer.slice(0, pointer.lastIndexOf("/"));
      out.push(type === undefined ? { path: node, pointer, entry, index } : { path: node, pointer, entry, index, type });
    }
    return;
  }
  const deeper = templates.filter((template) => template.length > depth);
  if (deeper.length === 0) return;
  if (Array.isArray(node)) {
    // The list is named when a template reaches into it, whether or not it holds a path.
    if (deeper.some((template) => template[depth] === "*") && lists.length === 0) lists.push(pointer);
    for (let position = 0; position < node.length; position += 1) {
      const token = String(position);
      const next = deeper.filter((template) => template[depth] === "*" || template[depth] === token);
      if (next.length > 0) collect(node[position], `${pointer}/${token}`, undefined, position, next, depth + 1, out, lists);
    }
  } else if (isObject(node)) {
    for (const key of Object.keys(node)) {
      const next = deeper.filter((template) => template[depth] === "*" || template[depth] === key);
      if (next.length > 0) collect(node[key], `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`, node, index, next, depth + 1, out, lists);
    }
  }
}
