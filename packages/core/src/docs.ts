import type { JsonSchema, RuleMeta } from "./types.js";

/** Where a built-in rule's README is published. The rule id is the folder name. */
export function docsUrl(ruleId: string): string {
  return `https://github.com/returnlint/returnlint/blob/main/packages/rule-${ruleId}/README.md`;
}

export const OPTIONS_START = "<!-- options:start (generated from the rule's schema by `pnpm docs:rules`) -->";
export const OPTIONS_END = "<!-- options:end -->";

function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" \\| ");
  if (schema.type === "array") {
    const items = schema.items as JsonSchema | undefined;
    return `${items === undefined ? "unknown" : typeOf(items)}[]`;
  }
  if (schema.type === "object" && typeof schema.additionalProperties === "object") {
    return `{ [name]: ${typeOf(schema.additionalProperties as JsonSchema)} }`;
  }
  return typeof schema.type === "string" ? schema.type : "unknown";
}

/** The options table of a rule's README, from the same `meta` the runner uses. */
export function renderOptionsTable(meta: RuleMeta<unknown>): string {
  const properties = (meta.schema.properties ?? {}) as Record<string, JsonSchema>;
  const names = Object.keys(properties);
  if (names.length === 0) return "This rule has no options.";
  const defaults = meta.defaultOptions as Record<string, unknown>;
  const rows = names.map((name) => {
    const schema = properties[name] ?? {};
    const fallback = name in defaults ? `\`${JSON.stringify(defaults[name])}\`` : "(none)";
    const description = typeof schema.description === "string" ? schema.description : "";
    return `| \`${name}\` | ${typeOf(schema)} | ${fallback} | ${description} |`;
  });
  return ["| Option | Type | Default | Description |", "| --- | --- | --- | --- |", ...rows].join("\n");
}

/** Replaces the generated block of a README; returns the text unchanged when it has no markers. */
export function withOptionsTable(readme: string, meta: RuleMeta<unknown>): string {
  const start = readme.indexOf(OPTIONS_START);
  const end = readme.indexOf(OPTIONS_END);
  if (start === -1 || end === -1 || end < start) return readme;
  return `${readme.slice(0, start + OPTIONS_START.length)}\n${renderOptionsTable(meta)}\n${readme.slice(end)}`;
}
