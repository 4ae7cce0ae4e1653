import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("..", import.meta.url));

export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly [key: string]: unknown;
}

export interface WorkspacePackage {
  /** The folder, relative to the repository root, with forward slashes: `packages/core`. */
  readonly folder: string;
  readonly manifest: Manifest;
}

/** Every package under packages/*, apps/* and examples/returnlint-rule-*: the workspace's published shape. */
export function workspacePackages(): WorkspacePackage[] {
  const groups: [string, (name: string) => boolean][] = [
    ["packages", () => true],
    ["apps", () => true],
    ["examples", (name) => name.startsWith("returnlint-rule-")],
  ];
  const found: WorkspacePackage[] = [];
  for (const [group, include] of groups) {
    for (const name of readdirSync(path.join(REPO, group)).sort()) {
      const file = path.join(REPO, group, name, "package.json");
      if (!include(name) || !existsSync(file)) continue;
      found.push({ folder: `${group}/${name}`, manifest: JSON.parse(readFileSync(file, "utf8")) as Manifest });
    }
  }
  return found;
}
