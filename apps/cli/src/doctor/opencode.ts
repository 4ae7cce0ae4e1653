import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { FileRefusedError, readRegularFile } from "@returnlint/core";
import { andList, readSettings } from "./settings.js";
import { checkedAgents, configLine, mappedBuiltIns, noAgentChecked } from "./agents.js";
import type { DoctorLine, HostDoctor } from "./host-doctor.js";
import { definitionFolder, OPENCODE_AGENT_DEFINITIONS } from "../commands/init-settings.js";

const PLUGIN = "@returnlint/opencode";
const CONFIG_FILES = ["opencode.json", "opencode.jsonc"] as const;
const PLUGIN_DIRS = [".opencode/plugins", ".opencode/plugin"] as const;
/** A plugin file is a line or two; a larger one is not read. */
const MAX_PLUGIN_BYTES = 64 * 1024;

/** OpenCode: the plugin listed in opencode.json (installed from the registry), or a plugin file loading the project's copy. */
export const opencodeDoctor: HostDoctor = {
  host: "opencode",
  title: "OpenCode",
  present: (context) => CONFIG_FILES.some((file) => existsSync(path.join(context.root, file))) || existsSync(path.join(context.root, ".opencode")),
  check(context) {
    const lines: DoctorLine[] = [];
    const config = configLine(context);
    if (config !== undefined) lines.push(config);
    const listed = CONFIG_FILES.flatMap((file) => {
      const settings = readSettings(context.root, file);
      if (settings.kind === "broken") {
        lines.push(file.endsWith(".jsonc") ? { level: "warn", text: `${file} has comments or is not JSON: doctor cannot read it; look for "${PLUGIN}" in its "plugin" list yourself` } : settings.line);
      }
      if (settings.kind !== "object") return [];
      const plugins = Array.isArray(settings.value.plugin) ? (settings.value.plugin as unknown[]) : [];
      return plugins.some((entry) => namesPlugin(Array.isArray(entry) ? (entry as unknown[])[0] : entry)) ? [file] : [];
    });
    const local = localPluginFiles(context.root);
    for (const file of listed) lines.push({ level: "ok", text: `${file} lists ${PLUGIN}: OpenCode installs it from the npm registry when it starts (it needs the network then)` });
    for (const file of local) {
      lines.push(
        existsSync(path.join(context.root, "node_modules", ...PLUGIN.split("/"), "package.json"))
          ? { level: "ok", text: `${file} loads ${PLUGIN} from node_modules` }
          : { level: "fail", text: `${file} loads ${PLUGIN} from node_modules, where it is not installed: OpenCode fails to load the plugin; run "npm install --save-dev ${PLUGIN}"` },
      );
    }
    if (listed.length === 0 && local.length === 0) {
      lines.push({ level: "fail", text: `OpenCode loads no returnlint plugin: neither ${andList([...CONFIG_FILES])} lists "${PLUGIN}" nor does a file in ${PLUGIN_DIRS[0]}/ load it; run "returnlint init opencode"` });
      return lines;
    }
    const agents = OPENCODE_AGENT_DEFINITIONS.map(definitionFolder).flatMap(([dir, suffix]) => checkedAgents(context, dir, suffix, (line) => lines.push(line)));
    const names = [...new Map(agents.map((agent) => [agent.name, agent])).values()];
    lines.push(
      names.length === 0
        ? noAgentChecked(".opencode/agent/", "plugin")
        : { level: "ok", text: `the plugin checks the returns of ${andList(names.map((agent) => `${agent.name} (/${agent.command})`))}` },
    );
    lines.push(...mappedBuiltIns(context.config));
    return lines;
  },
};

function namesPlugin(entry: unknown): boolean {
  return typeof entry === "string" && (entry === PLUGIN || entry.startsWith(`${PLUGIN}@`));
}

/** The project's plugin files that load @returnlint/opencode. */
function localPluginFiles(root: string): string[] {
  return PLUGIN_DIRS.flatMap((dir) => {
    let names: string[];
    try {
      names = readdirSync(path.join(root, dir)).filter((name) => /\.[cm]?[jt]s$/.test(name));
    } catch {
      return [];
    }
    return names
      .filter((name) => {
        try {
          return readRegularFile(path.join(root, dir, name), { maxBytes: MAX_PLUGIN_BYTES }).bytes.toString("utf8").includes(PLUGIN);
        } catch (error) {
          if (error instanceof FileRefusedError) return false;
          throw error;
        }
      })
      .map((name) => `${dir}/${name}`);
  });
}
