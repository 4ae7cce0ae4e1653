import type { TestProject } from "vitest/node";
import { ensureInstalled, PINNED, type Pinned } from "./hosts.js";
import { publishWorkspace, startRegistry, stopRegistry, type Registry } from "./registry.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The loopback registry every host and npm client in the suite uses. */
    registry: string;
    /** What the suite published to it: package name → version. */
    published: Record<string, string>;
  }
}

let registry: Registry | undefined;

/** Installs the pinned hosts and tools (reused when already there), starts the registry and publishes the workspace to it. */
export async function setup(project: TestProject): Promise<void> {
  for (const name of Object.keys(PINNED) as Pinned[]) ensureInstalled(name);
  registry = await startRegistry();
  const published = publishWorkspace(registry.url);
  project.provide("registry", registry.url);
  project.provide("published", published);
}

export function teardown(): void {
  if (registry !== undefined) stopRegistry(registry);
}
