import type { HostAdapter } from "../host.js";
import { claude } from "./claude.js";
import { codex } from "./codex.js";
import { copilot } from "./copilot.js";
import { cursor } from "./cursor.js";
import { gemini } from "./gemini.js";

/** Every host `returnlint hook NAME` serves, by name. */
export const HOSTS: ReadonlyMap<string, HostAdapter> = new Map([claude, codex, copilot, cursor, gemini].map((host) => [host.name, host]));

/** The host of that name, or undefined. */
export function hostNamed(name: string): HostAdapter | undefined {
  return HOSTS.get(name);
}
