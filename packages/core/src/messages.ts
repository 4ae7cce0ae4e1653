import type { MessageData } from "./types.js";

const PLACEHOLDER = /\{(\w+)\}/g;

/** Fills `{name}` placeholders; an unknown name is left as written so that it shows. */
export function fillTemplate(template: string, data: MessageData): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    const value = data[name];
    return value === undefined ? whole : String(value);
  });
}

/** The placeholder names a template uses. */
export function placeholders(template: string): string[] {
  return Array.from(template.matchAll(PLACEHOLDER), (match) => match[1] ?? "");
}
