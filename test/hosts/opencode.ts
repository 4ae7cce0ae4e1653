import path from "node:path";
import { binOf, jsonLines, quietEnv, run, type Finished } from "./hosts.js";
import type { ModelServer } from "./model-server.js";

export interface OpencodeRun extends Finished {
  readonly events: readonly Record<string, unknown>[];
}

/**
 * Runs the real OpenCode (`opencode run --format json`) in `root`, talking only to the
 * scripted model, and to `registry` for the packages it installs (plugins named in its
 * config, its own plugin types), with a home of its own.
 */
export async function runOpencode(
  root: string,
  prompt: string,
  options: { readonly home: string; readonly registry: string; readonly env?: Readonly<Record<string, string>> },
): Promise<OpencodeRun> {
  const { home } = options;
  const env = quietEnv({
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    // No update checks, model catalogue downloads, language servers or default plugins: only the model server and the registry.
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
    OPENCODE_DISABLE_CLAUDE_CODE: "1",
    npm_config_registry: options.registry,
    npm_config_cache: path.join(home, ".npm"),
    npm_config_fetch_retries: "0",
    ...options.env,
  });
  const finished = await run(binOf("opencode"), ["run", "--format", "json", prompt], { cwd: root, env, timeoutMs: 150_000 });
  return { ...finished, events: jsonLines(finished.stdout) };
}

/** An opencode.json whose only model is the scripted one, with the research subagent and the given plugin entries. */
export function opencodeConfig(server: ModelServer, agentPrompt: string, plugin: readonly unknown[]): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    provider: {
      scripted: {
        npm: "@ai-sdk/openai-compatible",
        name: "Scripted model",
        options: { baseURL: `${server.url}/v1`, apiKey: "dummy" },
        models: { model: { name: "Scripted model", tool_call: true } },
      },
    },
    model: "scripted/model",
    small_model: "scripted/model",
    share: "disabled",
    autoupdate: false,
    agent: { "lean-research-agent": { mode: "subagent", description: "Researches a task and writes a report", prompt: agentPrompt } },
    plugin,
  };
}
