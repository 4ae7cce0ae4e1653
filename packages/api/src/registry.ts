import type { LoadedRule, Preset } from "@returnlint/core";
import handoffPreset from "@returnlint/preset-handoff";
import metadataFilePreset from "@returnlint/preset-metadata-file";
import multiTaskPreset from "@returnlint/preset-multi-task";
import v5Preset from "@returnlint/preset-v5";
import v7Preset from "@returnlint/preset-v7";
import artifactContent from "@returnlint/rule-artifact-content";
import artifactEvidence from "@returnlint/rule-artifact-evidence";
import artifacts from "@returnlint/rule-artifacts";
import completionData from "@returnlint/rule-completion-data";
import delegation from "@returnlint/rule-delegation";
import earlyMetadata from "@returnlint/rule-early-metadata";
import errorDetails from "@returnlint/rule-error-details";
import fileClaims from "@returnlint/rule-file-claims";
import handoff from "@returnlint/rule-handoff";
import jsonStructure from "@returnlint/rule-json-structure";
import memoryCandidates from "@returnlint/rule-memory-candidates";
import postflightMarker from "@returnlint/rule-postflight-marker";
import multiTask from "@returnlint/rule-multi-task";
import requiredFields from "@returnlint/rule-required-fields";
import sessionId from "@returnlint/rule-session-id";
import statusEnum from "@returnlint/rule-status-enum";
import summaryLength from "@returnlint/rule-summary-length";
import userReview from "@returnlint/rule-user-review";

/** Every rule that ships with returnlint, by id, in the order the seeds check them. */
export const BUILTIN_RULES: ReadonlyMap<string, LoadedRule> = new Map(
  [jsonStructure, requiredFields, statusEnum, sessionId, delegation, artifacts, artifactEvidence, artifactContent, completionData, errorDetails, earlyMetadata, summaryLength, fileClaims, memoryCandidates, userReview, postflightMarker, handoff, multiTask].map((rule) => [
    rule.id,
    { rule, source: `@returnlint/rule-${rule.id}` } satisfies LoadedRule,
  ]),
);

/** Every preset that ships with returnlint, by name. A format's preset has the format's name (v5, v7, metadata-file, handoff, multi-task): `auto` picks it. */
export const BUILTIN_PRESETS: ReadonlyMap<string, Preset> = new Map([v5Preset, v7Preset, metadataFilePreset, handoffPreset, multiTaskPreset].map((preset) => [preset.name, preset]));
