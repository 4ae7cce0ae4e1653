import path from "node:path";
import { ReturnlintError } from "@returnlint/core";
import { containerAt, edited, lstatOrUndefined, openSettings, put, readIfRegular, type Change, type HostSetup } from "./init-settings.js";

export const OPENCODE_PLUGIN = "@returnlint/opencode";
const LOCAL_PLUGIN_FILE = path.join(".opencode", "plugins", "returnlint.js");
const LOCAL_PLUGIN_SOURCE = `// Loads @returnlint/opencode from this project's node_modules (written by "returnlint init opencode --local").\nexport { default } from "${OPENCODE_PLUGIN}";\n`;

function opencodeChange(cwd: string): Change | undefined {
  const name = ["opencode.json", "opencode.jsonc"].find((candidate) => lstatOrUndefined(path.join(cwd, candidate)) !== undefined) ?? "opencode.json";
  const settings = openSettings(cwd, [name]);
  const change = { verb: "add", what: `"${OPENCODE_PLUGIN}" to the plugins of ${name}${settings.json === undefined ? " (a new file)" : ""}` } as const;
  return edited(settings, { $schema: "https://opencode.ai/config.json", plugin: [OPENCODE_PLUGIN] }, change, (json, root) => {
    const plugins = containerAt(settings, root, "plugin", "array");
    if (plugins === undefined) {
      put(json, root, "plugin", [OPENCODE_PLUGIN]);
      return change;
    }
    const named = (entry: unknown) => entry === OPENCODE_PLUGIN || (Array.isArray(entry) && entry[0] === OPENCODE_PLUGIN) || (typeof entry === "string" && entry.startsWith(`${OPENCODE_PLUGIN}@`));
    if ((json.value(plugins) as unknown[]).some(named)) return undefined;
    json.append(plugins, OPENCODE_PLUGIN);
    return change;
  });
}

function localPluginChange(cwd: string): Change | undefined {
  const file = path.join(cwd, LOCAL_PLUGIN_FILE);
  if (lstatOrUndefined(file) !== undefined) {
    if (readIfRegular(file, LOCAL_PLUGIN_SOURCE.length) === LOCAL_PLUGIN_SOURCE) return undefined;
    throw new ReturnlintError("USAGE", `${LOCAL_PLUGIN_FILE} exists and is not the one init writes; init changes nothing. Remove it, or make it re-export "${OPENCODE_PLUGIN}" yourself.`);
  }
  return { file, root: cwd, names: LOCAL_PLUGIN_FILE.split(path.sep), content: LOCAL_PLUGIN_SOURCE, verb: "write", what: `${LOCAL_PLUGIN_FILE}, which loads ${OPENCODE_PLUGIN} from node_modules` };
}

/** `returnlint init opencode`: the plugin in opencode.json (OpenCode installs it), or with --local a plugin file loading node_modules' copy. */
export const opencodeSetup: HostSetup = {
  flags: { local: true },
  plan(cwd, flags) {
    return Promise.resolve({
      changes: [flags.local ? localPluginChange(cwd) : opencodeChange(cwd)],
      done: `OpenCode already loads ${OPENCODE_PLUGIN}`,
      next: flags.local
        ? `npm install --save-dev ${OPENCODE_PLUGIN}   (docs/install.md: before it is published, its packed tarball)`
        : "nothing: OpenCode installs the plugin from the npm registry when it starts",
    });
  },
};
