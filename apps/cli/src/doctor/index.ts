import type { HostDoctor } from "./host-doctor.js";
import { claudeDoctor } from "./claude.js";
import { codexDoctor } from "./codex.js";
import { copilotDoctor } from "./copilot.js";
import { cursorDoctor } from "./cursor.js";
import { geminiDoctor } from "./gemini.js";
import { opencodeDoctor } from "./opencode.js";

/** Every host `returnlint doctor` checks, in the order it reports them. */
export const DOCTORS: readonly HostDoctor[] = [claudeDoctor, codexDoctor, copilotDoctor, cursorDoctor, geminiDoctor, opencodeDoctor];
