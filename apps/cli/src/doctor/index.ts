import type { HostDoctor } from "./host-doctor.js";
import { claudeDoctor } from "./claude.js";
import { geminiDoctor } from "./gemini.js";
import { opencodeDoctor } from "./opencode.js";

/** Every host `returnlint doctor` checks, in the order it reports them. */
export const DOCTORS: readonly HostDoctor[] = [claudeDoctor, opencodeDoctor, geminiDoctor];
