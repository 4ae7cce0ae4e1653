import type { ContractView } from "./contract.js";
import type { Claims } from "./claims.js";
import type { CONTRACT_FORMAT, FORMAT_NAMES } from "./vocabulary.js";

/**
 * The return formats returnlint knows, as core's FORMAT_NAMES lists them (vocabulary.ts), each with a
 * built-in preset of the same name; and `contract`, a return checked under a project's own contract.
 */
export type FormatName = (typeof FORMAT_NAMES)[number] | typeof CONTRACT_FORMAT;

/** What a config entry says about a rule. */
export type Severity = "off" | "warn" | "error";

/** What a single line of the transcript is. */
export type Level = "pass" | "info" | "warn" | "fail";

export type JsonObject = Record<string, unknown>;

/** JSON Schema (draft 2020-12 subset understood by ajv 8). */
export type JsonSchema = Record<string, unknown>;

/**
 * One message a rule may emit. `text` is the transcript headline
 * (`[FAIL] Artifact is empty: {path}`); `detail` is printed verbatim beneath it
 * (`Error: …`, or `Expected: …` / `Got: …` lines); `recommendation` tells the
 * agent what to change. All three are templates with `{placeholder}`s; besides the
 * data a rule passes, `{agent}` ("researcher"), `{subagent}` ("researcher subagent",
 * or "the subagent" when no name is known) and `{command}` are always filled.
 */
export interface MessageSpec {
  readonly text: string;
  readonly detail?: string;
  readonly recommendation?: string;
  /**
   * What the subagent itself should change, addressed to it (`--format reask`, the Claude Code
   * hook's block reason): one imperative clause with no other context needed, e.g.
   * `"summary" mentions {word}; replace it with what you did`. A template like the others.
   * Without it, returnlint words one from `detail` and `recommendation`.
   */
  readonly reask?: string;
}

/** What `returnlint rules`, the docs generator and the runner read of a rule; `MessageId` names its messages. */
export interface RuleMeta<Options, MessageId extends string = string> {
  /** One line, shown by `returnlint rules`. */
  readonly description: string;
  /** Where the rule's README lives (`defineRule` derives it from the id when given how). */
  readonly docs: string;
  /**
   * `object` (the default): the rule runs only when the return parsed to a JSON object.
   * `text`: the rule runs on every input, parsed or not (json-structure is one).
   */
  readonly input?: "object" | "text";
  /** JSON Schema of the options object; validated by core when the config loads. */
  readonly schema: JsonSchema;
  readonly defaultOptions: Options;
  readonly messages: Readonly<Record<MessageId, MessageSpec>>;
}

/**
 * What a rule passes with a report: the values its message templates interpolate
 * (what was expected, what was found, a suggestion, a path), by name. Results carry
 * it as `data`, so that programs read the values instead of parsing the prose.
 */
export type MessageData = Readonly<Record<string, string | number>>;

export interface ReportDescriptor<MessageId extends string = string> {
  /** A key of the rule's `meta.messages`. */
  readonly messageId: MessageId;
  readonly data?: MessageData;
  /** JSON Pointer (RFC 6901) into the return. */
  readonly pointer?: string;
  /**
   * "warn" makes this one finding a warning even when the rule is configured as an
   * error (never the reverse): for checks whose options say they are advisory.
   */
  readonly level?: "warn";
}

/** What the caller knows about the delegation this return answers. */
export interface Expected {
  readonly sessionId?: string;
  readonly agent?: string;
  readonly task?: string;
  /** `meta` for tasks that change the agent system itself (`--task-type`, or specs/state.json). */
  readonly taskType?: string;
  /** When the run started (`--since`): artifacts older than this were not written by it. */
  readonly since?: Date;
  /** A git revision the run started from (`--git-base`). */
  readonly gitBase?: string;
  /**
   * The subagent's transcript (`--transcript`, or the path the host's hook payload gives): Claude
   * Code's or Codex's JSONL, or Copilot CLI's `events.jsonl`.
   */
  readonly transcriptPath?: string;
  /** Whose run the transcript holds, when it holds a whole session (Copilot CLI: the subagent's `agentId`). */
  readonly transcriptAgentId?: string;
  /**
   * The file the return was read from, relative to the project root, when it lies inside it
   * (`check FILE`, `check --task`, `scan`): rules look beside it (postflight-marker). Not set for
   * console returns, nor by the hook, which runs before the postflight.
   */
  readonly returnFile?: string;
  /** An `in_progress` return older than this many seconds is stale (`--stale-after`). */
  readonly staleAfterSeconds?: number;
  /** The clock rules compare timestamps with; fixed in tests. */
  readonly now?: Date;
}

/** How artifacts are looked at. Every path is relative to the project root. */
export type FileCheck =
  | {
      readonly ok: true;
      readonly kind: "file";
      readonly size: number;
      /** Last modification time, milliseconds since the epoch (evidence of when it was written). */
      readonly mtimeMs: number;
      readonly path: string;
      /**
       * How many names the file has (st_nlink). More than one means it may also be a file
       * outside the root: core's view never reads such a file (SECURITY.md, "Hard links").
       * Optional for other views.
       */
      readonly links?: number;
    }
  | { readonly ok: false; readonly problem: FileProblem; readonly path: string; readonly kind?: string };

export type FileProblem =
  | "emptyPath"
  | "nulByte"
  | "absolute"
  | "homeRelative"
  | "escapesRoot"
  | "symlinkEscapesRoot"
  | "symlinkLoop"
  | "notFound"
  | "notAFile"
  | "nameTooLong"
  | "unreadable"
  | "returnFile";

export interface FileView {
  /** The project root, absolute. */
  readonly root: string;
  /** Classifies a path without opening it. Results are cached for the run. Synchronous (awaiting it works too). */
  check(path: string): FileCheck;
  /**
   * Reads at most `maxBytes` of a regular file inside the root, or returns null. Synchronous.
   * core's view reads only the very file `check` classified, and never a file with more than one link.
   */
  read(path: string, maxBytes: number): string | null;
  /**
   * The names in a folder inside the root (the first thousand it holds, sorted), or null when
   * it is not a folder inside the root or cannot be read. Optional: a view that cannot list says
   * nothing, and what is built on it (a near miss: "did you mean …?") is simply not offered.
   */
  list?(folder: string): readonly string[] | null;
}

/** A place in the text, 1-based; columns count UTF-16 code units. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** A key written more than once in one object: JSON.parse and jq silently keep the last value. */
export interface DuplicateKey {
  /** JSON Pointer of the object that holds the key twice ("" for the top level). */
  readonly pointer: string;
  readonly key: string;
  /** How many times the key appears in that object. */
  readonly count: number;
}

/** What parsing noticed besides the verdict; each note is present only when there is something to say. */
export interface ParseNotes {
  /**
   * The first character that stands for bytes that were not UTF-8: `decodeUtf8` turns
   * each such byte into a lone surrogate (U+DC80–U+DCFF), which valid text never holds.
   */
  readonly invalidUtf8?: TextPosition;
}

export type ParseOutcome =
  | (ParseNotes & {
      readonly ok: true;
      readonly value: unknown;
      /** Duplicate keys at any depth, in the order they appear (the first 50). */
      readonly duplicateKeys?: readonly DuplicateKey[];
    })
  | (ParseNotes & {
      readonly ok: false;
      /**
       * `missing`: there was nothing to parse, because the metadata file that should hold the return
       * does not exist; `unreadable`: it is there, but not as a regular file returnlint may read (a
       * task folder that is a link, a file over the size limit), and `reason` says why.
       */
      readonly kind: "empty" | "noReturn" | "syntax" | "trailing" | "missing" | "unreadable";
      readonly reason: string;
      readonly line: number;
      readonly column: number;
      /** For `missing` and `unreadable`: the metadata file, as messages show it. */
      readonly file?: string;
    });

export interface RuleContext<Options, MessageId extends string = string> {
  /** The parsed return. For `input: "text"` rules it is `{}` unless the return is an object. */
  readonly value: JsonObject;
  /** The raw text the return was parsed from (byte-order mark removed). */
  readonly text: string;
  readonly parse: ParseOutcome;
  /** The orchestrator command this return answers (`research`, `plan`, …), or null. */
  readonly command: string | null;
  readonly format: FormatName;
  readonly expected: Expected;
  /** The agent named in messages: `--agent`, else the return's `agent_type`. */
  readonly agent: string;
  readonly options: Options;
  readonly files: FileView;
  // Function-typed properties, not methods, so that TypeScript checks their parameter strictly: a
  // context can be handed to a helper typed with some of the rule's message ids, never with others.
  /** A problem, reported at the severity the config gives the rule. */
  readonly report: (descriptor: ReportDescriptor<MessageId>) => void;
  /** A check that held (`[PASS] Artifact exists: …`). */
  readonly pass: (descriptor: ReportDescriptor<MessageId>) => void;
  /** A note that is neither pass nor problem (`[INFO] Artifact count: 2`). */
  readonly info: (descriptor: ReportDescriptor<MessageId>) => void;
  /** Aborted when the rule's time limit passes: long asynchronous work can stop there (its findings no longer count). */
  readonly signal: AbortSignal;
  /** What the return claims, and where: the format's fields, or where its contract's annotations say (claims.ts). */
  readonly claims: Claims;
  /** The contract the return is checked under, with its violations; undefined under a preset. */
  readonly contract: ContractView | undefined;
}

/** A rule; `MessageId` is the union of its `meta.messages` keys, which `check` may report. */
export interface Rule<Options = unknown, MessageId extends string = string> {
  readonly id: string;
  readonly meta: RuleMeta<Options, MessageId>;
  check(context: RuleContext<Options, MessageId>): void | Promise<void>;
}

/** A rule, type-erased, as registries and configs hold it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRule = Rule<any>;

export interface Result {
  readonly ruleId: string;
  readonly level: Level;
  readonly messageId: string;
  readonly message: string;
  readonly detail?: string;
  readonly recommendation?: string;
  /** The message's `reask` line, filled: what to tell the subagent, when the rule words it itself. */
  readonly reask?: string;
  readonly pointer?: string;
  /**
   * The data the rule reported with this finding (not the names core adds: `agent`,
   * `subagent`, `command`), JSON-safe and bounded like the message: strings and finite
   * numbers only, at most 50 entries, each string cut to 200 characters and its length.
   * Absent when the rule reported no data.
   */
  readonly data?: MessageData;
}

export interface Report {
  readonly ok: boolean;
  readonly command: string | null;
  readonly format: FormatName;
  readonly status: string | null;
  readonly agent: string;
  readonly errorCount: number;
  readonly warningCount: number;
  /** True when a rule crashed: the verdict cannot be trusted (exit 2). */
  readonly internalError: boolean;
  /** What the rules reported, as far as the runner's limits list it (see `MAX_LISTED_PER_RULE`); the counts above hold every result. */
  readonly results: readonly Result[];
  /** How many results the rules reported past the limits: counted, summed up per rule in a `resultsOmitted` result, not listed. Absent when none. */
  readonly omitted?: number;
}
