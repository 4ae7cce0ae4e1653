/** A config checked against its schema: every problem, and the well-formed part kept for the rest of the checks. */
import { closest } from "../suggest.js";
import { isObject } from "../pointer.js";
import { preview, jsonType } from "../json/render.js";
import type { Severity } from "../types.js";
import { describeAjvError, displayPath } from "./problems.js";
import type { SchemaValidator } from "./validators.js";
import { configSchema, SEVERITIES, type Config } from "./schema.js";

/**
 * What is wrong with a config's shape, and the part of it that is well-formed: that
 * part is still resolved and checked, so that every problem shows in one run.
 */
export async function checkShape(value: unknown, precompiled: SchemaValidator | undefined): Promise<{ problems: string[]; usable: Config }> {
  if (!isObject(value)) return { problems: [`the config must be an object; received ${jsonType(value)}`], usable: dictionary() };
  const errors = precompiled === undefined ? (await import("./options.js")).validateConfigShape(value) : precompiled(value) ? [] : [...(precompiled.errors ?? [])];
  const problems: string[] = [];
  const bad = new Set<string>();
  for (const error of errors) {
    const entryPath = /^(?:\/(?:commands|formats)\/[^/]+)?\/rules\/[^/]+/.exec(error.instancePath)?.[0];
    if (entryPath === undefined) {
      problems.push(describeAjvError(error, value, configSchema, []));
      bad.add(error.instancePath);
    } else if (!bad.has(entryPath)) {
      problems.push(describeRuleEntry(entryPath, value));
      bad.add(entryPath);
    }
  }
  return { problems, usable: usablePart(value, "", bad) };
}

/**
 * An object without a prototype: names that come from a config or a hook payload
 * ("constructor", "__proto__", "toString") are looked up as names, never as
 * Object.prototype's members.
 */
export function dictionary(): Record<string, never> {
  return Object.create(null) as Record<string, never>;
}

/** The config without the parts that failed the schema; every map in it without a prototype. */
function usablePart(value: Record<string, unknown>, pointer: string, bad: ReadonlySet<string>): Record<string, unknown> {
  const usable: Record<string, unknown> = dictionary();
  // One pass, and pointers built only where they are needed: a map of 200,000 agents is copied, not parsed again.
  for (const key of Object.keys(value)) {
    const child = value[key];
    const descend = descends(pointer, key) && isObject(child);
    const childPointer = descend || bad.size > 0 ? `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}` : "";
    if (bad.has(childPointer)) continue;
    usable[key] = descend ? usablePart(child, childPointer, bad) : child;
  }
  return usable;
}

/** The maps of a config: rules, commands and formats, each command or format, its rules, and agents. */
function descends(pointer: string, key: string): boolean {
  if (pointer === "") return key === "rules" || key === "commands" || key === "formats" || key === "agents";
  if (pointer === "/commands" || pointer === "/formats") return true;
  return key === "rules" && /^\/(?:commands|formats)\/[^/]+$/.test(pointer);
}

function describeRuleEntry(pointer: string, config: Record<string, unknown>): string {
  const tokens = pointer.slice(1).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
  let entry: unknown = config;
  for (const token of tokens) entry = isObject(entry) ? entry[token] : undefined;
  const where = displayPath(tokens);
  const severity = Array.isArray(entry) ? (entry as unknown[])[0] : entry;
  if (Array.isArray(entry) && (entry.length === 0 || entry.length > 2)) {
    return `${where}: must be a severity or [severity, options]; received an array of ${String(entry.length)}`;
  }
  if (typeof severity !== "string" || !SEVERITIES.includes(severity as Severity)) {
    const guess = typeof severity === "string" ? closest(severity, SEVERITIES) : undefined;
    const hint = guess === undefined ? "" : ` (did you mean "${guess}"?)`;
    return `${where}: severity must be "off", "warn" or "error"; received ${preview(severity)}${hint}`;
  }
  return `${where}[1]: options must be an object; received ${preview((entry as unknown[])[1])}`;
}
