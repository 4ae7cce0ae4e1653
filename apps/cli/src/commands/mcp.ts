import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { EXIT, ReturnlintError } from "@returnlint/core";
import { importModule } from "../host.js";
import type { CommandIo } from "./io.js";

export const MCP_HELP = `Usage: returnlint mcp [options]

Starts the returnlint MCP server on standard input and output, so that a subagent
can check its own return before it returns (tools validate_return, check_task,
list_rules, explain_rule). It is the server of the @returnlint/mcp package, which
this command finds in the project's node_modules, beside returnlint, or in the
clone of returnlint this command was built in; its bin, returnlint-mcp, starts
the same server. docs/install.md says how to install it before and after it is
published.

Options:
  -c, --config FILE    use FILE instead of looking for returnlint.config.* upwards
  -h, --help           show this help

Exit codes: 0 when the client closes the connection, 2 usage error or no @returnlint/mcp.
Docs: https://github.com/returnlint/returnlint/blob/main/docs/mcp.md
`;

type ServerMain = (argv: readonly string[], io: { stdout(text: string): void; stderr(text: string): void }) => Promise<number>;

export async function mcp(argv: readonly string[], io: CommandIo): Promise<number> {
  if (argv.includes("-h") || argv.includes("--help")) {
    io.stdout(MCP_HELP);
    return EXIT.passed;
  }
  const entry = locate(io.cwd);
  const loaded = (await importModule(entry)) as { main?: unknown };
  if (typeof loaded.main !== "function") throw new ReturnlintError("USAGE", `${entry} is not the @returnlint/mcp server (it exports no main).`);
  return (loaded.main as ServerMain)(argv, { stdout: (text) => { io.stdout(text); }, stderr: (text) => { io.stderr(text); } });
}

/**
 * @returnlint/mcp as the project installs it, else beside this returnlint (a global install of
 * both), else in the clone this returnlint was built in (apps/cli/dist/ → packages/mcp/), where the
 * package names itself.
 */
function locate(cwd: string): string {
  const bin = process.argv[1];
  const clone = bin === undefined ? undefined : path.resolve(path.dirname(bin), "..", "..", "..", "packages", "mcp");
  for (const from of [path.join(cwd, "package.json"), bin, clone === undefined ? undefined : path.join(clone, "package.json")]) {
    if (from === undefined) continue;
    try {
      return createRequire(from).resolve("@returnlint/mcp");
    } catch {
      // Not there: try the next place.
    }
  }
  if (clone !== undefined && existsSync(path.join(clone, "src", "server.ts"))) {
    throw new ReturnlintError("USAGE", `returnlint mcp runs the server of this clone's packages/mcp, which is not built yet: run pnpm build in ${path.resolve(clone, "..", "..")}, then returnlint mcp again.`);
  }
  throw new ReturnlintError(
    "USAGE",
    "returnlint mcp runs the server of the @returnlint/mcp package, which is not installed here. Install its packed tarball next to returnlint's (docs/install.md, before it is published), or run it from a clone of returnlint (pnpm build, then node CLONE/packages/mcp/dist/bin.js); once it is published, npm install --save-dev @returnlint/mcp.",
  );
}
