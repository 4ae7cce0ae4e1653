/** What an agent's definition asks it to return: a JSON return with its status, a metadata file, or prose of the project's own kind (`REPORT_CREATED: path`). */
export type AgentReturn = "json" | "metadata-file" | "prose";

const INSTRUCTIONS: Readonly<Record<AgentReturn, string>> = {
  json: 'Do the work. End with your JSON return: {"status": "...", "summary": "...", "artifacts": [...], "metadata": {...}}.\n',
  "metadata-file": "Do the work. Write your return to specs/{N}_{SLUG}/.return-meta.json, then return a brief text summary, not JSON.\n",
  prose: "Do the work, write the report where you are told, and return only this line:\n\nREPORT_CREATED: [absolute path of the report]\n",
};

/** An agent's Markdown definition as a project's folder of agents holds it (Claude Code, Cursor, Gemini CLI, Copilot CLI, OpenCode). */
export function agentMarkdown(name: string, returns: AgentReturn = "json"): string {
  return `---\nname: ${name}\ndescription: ${name}\n---\n${INSTRUCTIONS[returns]}`;
}

/** A Codex agent's definition (`.codex/agents/NAME.toml`). */
export function agentToml(name: string, returns: AgentReturn = "json"): string {
  return `name = "${name}"\ndescription = "${name}"\ndeveloper_instructions = '''\n${INSTRUCTIONS[returns]}'''\n`;
}
