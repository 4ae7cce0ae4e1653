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

/**
 * Installs the pinned hosts and tools (reused when already there), starts the registry and publishes
 * the workspace to it. The installs run in children of their own while the release is built and
 * published (a clean clone installs them all: about two minutes here, as long as the build).
 */
export async function setup(project: TestProject): Promise<void> {
  const installs = new Map((Object.keys(PINNED) as Pinned[]).map((name) => [name, ensureInstalled(name)]));
  const release = (async () => {
    await installs.get("verdaccio");
    const started = await startRegistry();
    registry = started;
    return { url: started.url, published: publishWorkspace(started.url) };
  })();
  // Every install is awaited, failed or not, before the setup gives the first error: no npm is left
  // running behind a failed setup.
  const failed = (await Promise.allSettled([release, ...installs.values()])).find((result) => result.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  const { url, published } = await release;
  project.provide("registry", url);
  project.provide("published", published);
}

export function teardown(): void {
  if (registry !== undefined) stopRegistry(registry);
}
