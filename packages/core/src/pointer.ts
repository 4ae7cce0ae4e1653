/** RFC 6901 JSON Pointers: the address of every finding. */

export function escapeToken(token: string | number): string {
  const text = String(token);
  return text.includes("~") || text.includes("/") ? text.replace(/~/g, "~0").replace(/\//g, "~1") : text;
}

export function pointerOf(...tokens: readonly (string | number)[]): string {
  return tokens.map((token) => `/${escapeToken(token)}`).join("");
}

/** `metadata.session_id` → `/metadata/session_id`: configs name fields with dots, as the return formats' documents do. */
const pathCache = new Map<string, string>();

export function pointerFromPath(path: string): string {
  if (path.startsWith("/")) return path;
  let pointer = pathCache.get(path);
  if (pointer === undefined) {
    pointer = pointerOf(...path.split("."));
    if (pathCache.size >= 1024) pathCache.clear();
    pathCache.set(path, pointer);
  }
  return pointer;
}

// Rules look up the same few pointers for every return: split each once.
const TOKEN_CACHE_LIMIT = 1024;
const tokenCache = new Map<string, readonly string[]>();

export function tokensOf(pointer: string): readonly string[] {
  let tokens = tokenCache.get(pointer);
  if (tokens === undefined) {
    tokens =
      pointer === ""
        ? []
        : pointer
            .slice(1)
            .split("/")
            .map((token) => (token.includes("~") ? token.replace(/~1/g, "/").replace(/~0/g, "~") : token));
    if (tokenCache.size >= TOKEN_CACHE_LIMIT) tokenCache.clear();
    tokenCache.set(pointer, tokens);
  }
  return tokens;
}

/** The value at `pointer`, or `undefined` when any step is missing. */
export function valueAt(root: unknown, pointer: string): unknown {
  return valueAtTokens(root, tokensOf(pointer));
}

/** valueAt for a pointer already split (tokensOf): a rule that looks up the same fields for every return splits them once. */
export function valueAtTokens(root: unknown, tokens: readonly string[]): unknown {
  let current: unknown = root;
  for (const token of tokens) {
    if (Array.isArray(current)) {
      current = /^(0|[1-9]\d*)$/.test(token) ? current[Number(token)] : undefined;
    } else if (isObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      return undefined;
    }
  }
  return current;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
