import path from "node:path";
import type { Block, Scenario, Turn } from "./model-server.js";

// The scenarios the scripted model plays against the real hosts. Each is data: which agent
// says what, keyed on what it was just told. Absolute paths (the Write tool wants them) come
// from the project's root, hence the small factories.

export const TASK_DIR = "specs/259_prove_completeness";
export const REPORT = `${TASK_DIR}/reports/research-001.md`;
export const META = `${TASK_DIR}/.return-meta.json`;
/** What the Claude hook's block reason asks of a subagent that named REPORT without writing it (`--format reask`'s line). */
export const WRITE_REPORT = `file "${REPORT}" does not exist; write it, or fix the path.`;

/** What only the research subagent's system prompt says: how the model server knows who asks. */
export const RESEARCHER_PROMPT = 'You are the research subagent of the returnlint hosts suite. Research the task you are given and write the report. End with your return: a sentence, then the JSON object in a ```json fence, with its "status", "summary", "artifacts" and "metadata".';
export const RESEARCH_TASK = "Research task 259 and write the report under specs/259_prove_completeness/reports/.";
export const PARENT_PROMPT = "Research task 259 with the research subagent.";

/** A v7 console return: prose, then the JSON in a fence, as the seeds' subagents end. */
export function consoleReturn(artifact: string, agent = "lean-research-agent"): string {
  const value = {
    status: "completed",
    summary: "Found the lemmas the completeness proof needs; report written.",
    artifacts: [{ type: "report", path: artifact, summary: "Research report" }],
    metadata: { session_id: "sess_1736700000_abc123", agent_type: agent, delegation_depth: 1, delegation_path: ["orchestrator", "research", agent] },
  };
  return `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/** A metadata file's content (return-meta.json), contextual status. */
export function metadataFile(artifact: string): string {
  const value = {
    status: "researched",
    summary: "Report written.",
    artifacts: [{ type: "report", path: artifact, summary: "Research report" }],
    metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

const text = (value: string): Block => ({ text: value });

/** Claude Code's subagent tool. */
function delegate(agent: string, prompt: string): Block {
  return { tool: "Agent", input: { description: `Run ${agent}`, prompt, subagent_type: agent, run_in_background: false } };
}

function write(root: string, file: string, content: string): Block {
  return { tool: "Write", input: { file_path: path.join(root, file), content } };
}

const parentDone: Turn = { name: "parent reads the result", agent: "main", reply: [text("Task 259 is researched.")] };

/**
 * Claude Code: the subagent claims a report it did not write; the hook blocks it; the
 * reason reaches it; it writes the report; the hook passes.
 */
export function phantomThenFixed(root: string, agent = "lean-research-agent"): Scenario {
  return {
    name: "phantom return, blocked, fixed",
    agents: { [agent]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [delegate(agent, RESEARCH_TASK)] },
      { name: "subagent writes the report it was told is missing", agent, when: WRITE_REPORT, reply: [write(root, REPORT, "# Research\n\nThe lemmas are in place.\n")] },
      { name: "subagent returns", agent, reply: [text(consoleReturn(REPORT, agent))] },
      parentDone,
    ],
  };
}

/** The subagent never writes the report: every return names a report that does not exist. */
export function alwaysPhantom(options: { readonly agent?: string; readonly varying: boolean }): Scenario {
  const agent = options.agent ?? "lean-research-agent";
  let attempt = 0;
  return {
    name: options.varying ? "a different phantom every time" : "the same phantom every time",
    agents: { [agent]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [delegate(agent, RESEARCH_TASK)] },
      {
        name: "subagent returns a phantom",
        agent,
        reply: () => {
          attempt += 1;
          return [text(consoleReturn(options.varying ? `${TASK_DIR}/reports/research-00${String(attempt)}.md` : REPORT, agent))];
        },
      },
      parentDone,
    ],
  };
}

/** A headless `claude -p` run that is itself the subagent: its Stop hook checks its last message. */
export function headlessPhantomThenFixed(root: string): Scenario {
  return {
    name: "headless run, Stop hook",
    turns: [
      { name: "agent writes the report it was told is missing", agent: "main", when: WRITE_REPORT, reply: [write(root, REPORT, "# Research\n\nDone.\n")] },
      { name: "agent returns", agent: "main", reply: [text(consoleReturn(REPORT))] },
    ],
  };
}

export const BUILT_IN_PROMPTS = { Plan: "Plan the fix for task 259.", Explore: "Find where task 259 is handled.", "general-purpose": "Summarise task 259." } as const;

/** The parent runs Claude Code's own agents, which answer in prose: the hook must let them be. */
export function builtInAgents(): Scenario {
  return {
    name: "built-in agents",
    turns: [
      {
        name: "parent runs Plan, Explore and general-purpose",
        agent: "main",
        when: "Use the built-in agents",
        times: 1,
        reply: Object.entries(BUILT_IN_PROMPTS).map(([agent, prompt]) => delegate(agent, prompt)),
      },
      ...Object.entries(BUILT_IN_PROMPTS).map(([agent, prompt]): Turn => ({ name: `${agent} answers in prose`, agent: "main", when: prompt, reply: [text(`${agent}: here is what I found, in prose.`)] })),
      { name: "parent reads the answers", agent: "main", reply: [text("All three answered.")] },
    ],
  };
}

/** The subagent writes its metadata file with the Write tool, first naming a report it has not written. */
export function metadataFileReturn(root: string): Scenario {
  const agent = "lean-research-agent";
  return {
    name: "metadata file written with the Write tool",
    agents: { [agent]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [delegate(agent, RESEARCH_TASK)] },
      { name: "subagent writes its metadata file", agent, when: RESEARCH_TASK, times: 1, reply: [write(root, META, metadataFile(REPORT))] },
      { name: "subagent writes the missing report", agent, when: WRITE_REPORT, reply: [write(root, REPORT, "# Research\n\nWritten after the hook asked.\n")] },
      { name: "subagent ends with a summary naming the task", agent, reply: [text(`Research completed for task 259. Metadata: ${META}`)] },
      parentDone,
    ],
  };
}

// OpenCode: the parent delegates with the `task` tool and reads the subagent's return, with
// the plugin's <validation> block after it, in the tool result (or, for a background task, in
// the message that brings the result).

/** The task_id the <validation> block tells the parent to resume with. */
export function resumeTaskId(input: string): string {
  const match = /<validation tool="returnlint" ok="false">[\s\S]*?task_id: "(ses_[^"]+)"/.exec(input);
  if (match?.[1] === undefined) throw new Error(`no task_id to resume in the validation block:\n${input}`);
  return match[1];
}

export const RESUME_PROMPT = "returnlint says your return failed validation: write the report you named, then return again.";

function task(input: Readonly<Record<string, unknown>>): Block {
  return { tool: "task", input: { description: "Research task 259", prompt: RESEARCH_TASK, subagent_type: "lean-research-agent", ...input } };
}

/** Foreground: phantom return, <validation ok="false">, the parent resumes the same subagent by task_id, it fixes its work. */
export function opencodeResume(root: string): Scenario {
  const agent = "lean-research-agent";
  return {
    name: "OpenCode: validation, resumed by task_id",
    agents: { [agent]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [task({})] },
      { name: "parent resumes the subagent", agent: "main", when: 'ok="false"', times: 1, reply: (request) => [task({ task_id: resumeTaskId(request.input), prompt: RESUME_PROMPT })] },
      { name: "parent accepts the result", agent: "main", when: 'ok="true"', reply: [text("Task 259 is researched.")] },
      { name: "subagent writes the report", agent, when: RESUME_PROMPT, reply: [{ tool: "write", input: { filePath: path.join(root, REPORT), content: "# Research\n\nWritten when resumed.\n" } }] },
      { name: "subagent returns", agent, reply: [text(consoleReturn(REPORT))] },
    ],
  };
}

/** Background: the task starts, the parent goes on, the result lands later with the block. */
export function opencodeBackground(): Scenario {
  const agent = "lean-research-agent";
  return {
    name: "OpenCode: background task",
    agents: { [agent]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent starts a background task", agent: "main", when: PARENT_PROMPT, times: 1, reply: [task({ background: true })] },
      // The result may land before the parent's next turn: then both are in one input.
      { name: "parent reads the landed result", agent: "main", when: "Background task completed", reply: [text("The background research came back.")] },
      // `opencode run` ends when the parent goes idle: it keeps working (a short command) while the subagent returns.
      { name: "parent works meanwhile", agent: "main", when: "Background task started", after: "subagent returns a phantom", reply: [{ tool: "bash", input: { command: "sleep 2", description: "Wait for the research" } }] },
      { name: "parent has nothing left to do", agent: "main", reply: [text("Still waiting for the research.")] },
      { name: "subagent returns a phantom", agent, reply: [text(consoleReturn(REPORT))] },
    ],
  };
}

/** OpenCode's own explore agent answers in prose: the plugin leaves it be. */
export function opencodeExplore(): Scenario {
  return {
    name: "OpenCode: built-in explore agent",
    turns: [
      { name: "parent asks explore", agent: "main", when: "Explore task 259", times: 1, reply: [{ tool: "task", input: { description: "Explore", prompt: BUILT_IN_PROMPTS.Explore, subagent_type: "explore" } }] },
      { name: "explore answers", agent: "main", when: BUILT_IN_PROMPTS.Explore, reply: [text("It is handled in src/task.ts, in prose.")] },
      { name: "parent reads it", agent: "main", reply: [text("Explored.")] },
    ],
  };
}

/** The subagent's MCP call of returnlint's validate_return, as Claude Code names the tool. */
export const VALIDATE_RETURN = "mcp__returnlint__validate_return";

/**
 * Claude Code with returnlint's MCP server: the subagent checks its own return before it
 * returns; told the report is missing, it writes it, checks again, and returns once it passes.
 * Claude Code gives the model a tool's structured content when there is one: the report's JSON.
 */
export function selfCheckThenReturn(root: string, agent = "lean-research-agent"): Scenario {
  const check: Block = { tool: VALIDATE_RETURN, input: { text: consoleReturn(REPORT, agent), command: "research" } };
  return {
    name: "the subagent checks its return with validate_return",
    agents: { [agent]: RESEARCHER_PROMPT },
    turns: [
      // Claude Code 2.1.330 connects MCP servers in the background and stops waiting for them
      // after about two seconds: a subagent started before returnlint-mcp has answered is offered
      // no MCP tool (seen once on a loaded machine). The parent "thinks" three seconds first.
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, holdMs: 3000, reply: [delegate(agent, RESEARCH_TASK)] },
      { name: "subagent checks its return", agent, when: RESEARCH_TASK, times: 1, reply: [check] },
      { name: "subagent writes the report validate_return said is missing", agent, when: `"message":"Artifact does not exist: ${REPORT}"`, times: 1, reply: [write(root, REPORT, "# Research\n\nChecked before returning.\n")] },
      { name: "subagent returns", agent, when: '{"ok":true,', reply: [text(consoleReturn(REPORT, agent))] },
      // The subagent's next request after the write (the Write tool's result, whatever Claude Code words it).
      { name: "subagent checks again", agent, times: 1, reply: [check] },
      parentDone,
    ],
  };
}
