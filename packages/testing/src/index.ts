export { tempProject, writeFiles, type Files, type TreeOptions } from "./temp-project.js";
export { agentMarkdown, agentToml, type AgentReturn } from "./agents.js";
export { commit, git, newRepository, type Change } from "./git.js";
export { cloneRealRepository, REAL_REPOSITORIES, realRepository } from "./real-repositories.js";
export { CURSOR_CONVERSATION, CURSOR_SUBAGENT_ID, cursorSubagentStop, researchReturnText } from "./cursor-payloads.js";
export { claudeTranscript, type TranscriptStep } from "./transcript.js";
