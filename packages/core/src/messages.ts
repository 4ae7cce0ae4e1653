import type { MessageData } from "./types.js";

const PLACEHOLDER = /\{(\w+)\}/g;

/** A template split once into literal text (even indexes) and placeholder names (odd indexes). */
const compiled = new Map<string, readonly string[]>();
/** Rule messages are a fixed set; a template built at run time must not grow the cache without bound. */
const MAX_COMPILED = 10_000;

function partsOf(template: string): readonly string[] {
  let parts = compiled.get(template);
  if (parts === undefined) {
    parts = template.split(PLACEHOLDER);
    if (compiled.size < MAX_COMPILED) compiled.set(template, parts);
  }
  return parts;
}

/**
 * Fills `{name}` placeholders from `data`, then from `fallback` for a name `data` does not
 * have (the runner's {agent}, {subagent}, {command}: no merged copy per message); an
 * unknown name is left as written so that it shows.
 */
export function fillTemplate(template: string, data: MessageData, fallback?: MessageData): string {
  if (!template.includes("{")) return template;
  const parts = partsOf(template);
  let text = parts[0] ?? "";
  for (let index = 1; index < parts.length; index += 2) {
    const name = parts[index] ?? "";
    const value = fallback === undefined || Object.hasOwn(data, name) ? data[name] : fallback[name];
    text += value === undefined ? `{${name}}` : String(value);
    text += parts[index + 1] ?? "";
  }
  return text;
}

/** The placeholder names a template uses. */
export function placeholders(template: string): string[] {
  return Array.from(template.matchAll(PLACEHOLDER), (match) => match[1] ?? "");
}

/**
 * The most characters of one value a message quotes. Messages quote what the return
 * says (a status, a path, an agent name); a return of megabytes must not become
 * megabytes of output, or of feedback sent back to the subagent.
 */
export const MAX_QUOTED_CHARS = 200;

/** `text`, or its first `max` characters and how long it was. Never cuts a surrogate pair in half. */
export function quoted(text: string, max = MAX_QUOTED_CHARS): string {
  if (text.length <= max) return text;
  const cut = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, cut)}… (${String(text.length)} characters)`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
