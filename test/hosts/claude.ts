import { mkdirSync } from "node:fs";
import path from "node:path";
import { binOf, jsonLines, quietEnv, run, type Finished } from "./hosts.js";
import type { ModelServer } from "./model-server.js";

export interface HookResponse {
  readonly event: string;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ClaudeRun extends Finished {
  readonly events: readonly Record<string, unknown>[];
  /** Every hook Claude Code ran, from its own `hook_response` events. */
  readonly hooks: readonly HookResponse[];
  /** The run's final `result` event. */
  readonly result: Record<string, unknown> | undefined;
}

/**
 * Runs the real Claude Code headless in `root`, talking only to the scripted model
 * (and to `registry` when npx needs one), with a home of its own.
 */
export async function runClaude(
  root: string,
  prompt: string,
  options: { readonly server: ModelServer; readonly home: string; readonly registry: string; readonly args?: readonly string[] },
): Promise<ClaudeRun> {
  mkdirSync(options.home, { recursive: true });
  const env = quietEnv({
    HOME: options.home,
    ANTHROPIC_BASE_URL: options.server.url,
    ANTHROPIC_API_KEY: "dummy",
    // No update checks, telemetry, error reports or other calls home: only the model server.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    npm_config_registry: options.registry,
    npm_config_cache: path.join(options.home, ".npm"),
    // As when a user starts Claude Code from a terminal, not from a package manager's script: npx
    // sets it for what it runs, so a hook can tell whether it came through npx.
    npm_command: undefined,
  });
  const args = ["-p", prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events", "--permission-mode", "acceptEdits", ...(options.args ?? [])];
  const finished = await run(binOf("claude"), args, { cwd: root, env, timeoutMs: 120_000 });
  const events = jsonLines(finished.stdout);
  const hooks = events
    .filter((event) => event.type === "system" && event.subtype === "hook_response")
    .map((event) => ({
      event: String(event.hook_event),
      exitCode: typeof event.exit_code === "number" ? event.exit_code : null,
      stdout: typeof event.stdout === "string" ? event.stdout : "",
      stderr: typeof event.stderr === "string" ? event.stderr : "",
    }));
  return { ...finished, events, hooks, result: events.findLast((event) => event.type === "result") };
}

/** A subagent definition as users write them in `.claude/agents/NAME.md`. */
export function agentFile(name: string, prompt: string, tools = "Read, Write, Bash"): string {
  return `---\nname: ${name}\ndescription: ${name} for the returnlint hosts suite\ntools: ${tools}\n---\n${prompt}\n`;
}
