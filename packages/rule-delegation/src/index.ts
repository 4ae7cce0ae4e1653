import { defineRule, docsUrl, isObject, jsonType, pointerOf, preview, type ReportDescriptor, type RuleContext } from "@returnlint/core";

type Setting = "error" | "warn" | "off";

interface Options {
  /** The deepest delegation allowed: orchestration-validation.md's limit is 3. */
  maxDepth: number;
  /** Missing agent_type, delegation_depth or delegation_path. */
  requireFields: Setting;
  /** delegation_path ends with agent_type. */
  pathEnd: Setting;
  /** delegation_depth equals the path's length minus 1. */
  depthMatchesPath: Setting;
}

const SETTING = { enum: ["error", "warn", "off"] } as const;
const FIELDS = ["agent_type", "delegation_depth", "delegation_path"] as const;

function shown(value: unknown): string {
  return value === null ? "null" : `${jsonType(value)} ${preview(value, 40)}`;
}

const isName = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

const chain = (path: readonly string[]): string => (path.length === 0 ? "(empty)" : path.join(" → "));

const at = (...tokens: (string | number)[]): string => pointerOf("metadata", ...tokens);

/** Reports a problem; counts 1. */
function fail<MessageId extends string>(context: RuleContext<Options, MessageId>, descriptor: ReportDescriptor<NoInfer<MessageId>>): number {
  context.report(descriptor);
  return 1;
}

/** An advisory check reports as its option says: as configured (a problem: counts 1), as a warning only, or not at all. */
function advise<MessageId extends string>(context: RuleContext<Options, MessageId>, setting: Setting, descriptor: ReportDescriptor<NoInfer<MessageId>>): number {
  if (setting === "error") return fail(context, descriptor);
  if (setting === "warn") context.report({ ...descriptor, level: "warn" });
  return 0;
}

/**
 * Whether a path whose last name is `last` ends with `agent`: the agent itself, or the skill that
 * delegated to it (`skill-lean-implementation` for `lean-implementation-agent`), since the
 * projects' skills hand their agent a path that ends with the skill and the agent returns it as given.
 */
function endsWith(last: string, agent: string): boolean {
  return last === agent || last === `skill-${agent.endsWith("-agent") ? agent.slice(0, -"-agent".length) : agent}`;
}

/** Up to this many agents, a path is searched for a repeated name pair by pair. */
const SHORT_PATH = 8;

function hasRepeat(path: readonly string[]): boolean {
  for (let index = 1; index < path.length; index += 1) {
    for (let earlier = 0; earlier < index; earlier += 1) if (path[earlier] === path[index]) return true;
  }
  return false;
}

/** orchestration-validation.md, "Delegation safety": no agent twice in the chain, no chain deeper than the limit. */
export default defineRule<Options>(docsUrl)({
  id: "delegation",
  meta: {
    description: "Delegation is safe: depth within the limit (MAX_DEPTH_EXCEEDED), no agent twice in the path (CYCLE_DETECTED), the path ending with the returning agent.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        maxDepth: { type: "integer", minimum: 0, description: "The deepest `metadata.delegation_depth` allowed; deeper is `MAX_DEPTH_EXCEEDED` (orchestration-validation.md's limit is 3)." },
        requireFields: {
          ...SETTING,
          description: "How a missing `metadata.agent_type`, `delegation_depth` or `delegation_path` is reported: `error`, `warn`, or `off` (when `required-fields` already requires them).",
        },
        pathEnd: { ...SETTING, description: "How a `delegation_path` that does not end with `metadata.agent_type` is reported." },
        depthMatchesPath: {
          ...SETTING,
          description: "How a `delegation_depth` other than the path's length minus 1 is reported (real returns often disagree, hence `off`).",
        },
      },
      required: ["maxDepth", "requireFields", "pathEnd", "depthMatchesPath"],
    },
    defaultOptions: { maxDepth: 3, requireFields: "error", pathEnd: "warn", depthMatchesPath: "off" },
    messages: {
      safe: { text: "Delegation is safe: depth {depth} of at most {maxDepth}, path {path}" },
      missingField: {
        text: "Missing metadata field: {field}",
        detail: "Error: metadata.{field} is needed to check delegation safety (depth limit and cycles)",
        recommendation: "Fix {subagent} to include metadata.{field} in its return",
        reask: "metadata.{field} is missing; add it",
      },
      invalidAgentType: {
        text: "Invalid metadata.agent_type: received {received}",
        detail: "Error: agent_type must name the returning agent, as a non-empty string",
        recommendation: "Fix {subagent} to set metadata.agent_type to its own name",
        reask: "metadata.agent_type is {received}; set it to your own agent name",
      },
      invalidDepth: {
        text: "Invalid delegation depth: received {received}",
        detail: "Error: metadata.delegation_depth must be a whole number from 0 to {maxDepth}",
        recommendation: "Fix {subagent} to set metadata.delegation_depth to its depth in the delegation chain (an integer)",
        reask: "metadata.delegation_depth is {received}; set it to your depth in the delegation chain, a whole number from 0 to {maxDepth}",
      },
      maxDepthExceeded: {
        text: "MAX_DEPTH_EXCEEDED: delegation depth {depth} exceeds the limit of {maxDepth}",
        detail: "Error: delegation may nest at most {maxDepth} levels; this return reports depth {depth} (path: {path}). Not recoverable by retrying",
        recommendation: "Fix {subagent} to do the work itself instead of delegating deeper than {maxDepth} levels",
        reask: "delegation depth {depth} exceeds the limit of {maxDepth}; do the work yourself instead of delegating further",
      },
      pathNotArray: {
        text: "Invalid metadata.delegation_path: received {received}",
        detail: 'Error: delegation_path must be an array of agent names, from the orchestrator to the returning agent, e.g. ["orchestrator", "research", "researcher"]',
        recommendation: "Fix {subagent} to return metadata.delegation_path as an array of agent names",
        reask: "metadata.delegation_path is {received}; make it an array of agent names, from the orchestrator to you",
      },
      pathEntryNotString: {
        text: "delegation_path[{index}] is not an agent name: received {received}",
        detail: "Error: every entry of delegation_path must be a non-empty string naming an agent",
        recommendation: "Fix {subagent} to list agents in delegation_path by name",
        reask: "delegation_path[{index}] is {received}; name each agent with a non-empty string",
      },
      cycleDetected: {
        text: "CYCLE_DETECTED: {repeated} appears twice in the delegation path",
        detail: "Error: the delegation path {path} returns to {repeated} at delegation_path[{index}]; a delegation must never call an agent already in its chain. Not recoverable by retrying",
        recommendation: "Fix {subagent} never to delegate back to an agent already in its delegation path ({repeated})",
        reask: "{repeated} appears twice in the delegation path {path}; never delegate back to an agent already in your chain",
      },
      pathEndMismatch: {
        text: "Delegation path does not end with the returning agent: ends with {last}, agent_type is {agentType}",
        detail: "Error: the delegation path {path} should end with metadata.agent_type ({agentType})",
        recommendation: "Fix {subagent} to append its own agent_type ({agentType}) to metadata.delegation_path",
        reask: "the delegation path ends with {last}, not with your agent_type {agentType}; append {agentType} to metadata.delegation_path",
      },
      emptyPath: {
        text: "Delegation path is empty",
        detail: "Error: metadata.delegation_path should list the chain from the orchestrator to the returning agent",
        recommendation: "Fix {subagent} to return the delegation path it was given, with its own agent_type appended",
        reask: "metadata.delegation_path is empty; return the path you were given with your own agent_type appended",
      },
      depthMismatch: {
        text: "Delegation depth {depth} does not match the delegation path ({length} agents)",
        detail: "Error: a path of {length} agents ({path}) means delegation_depth {implied}",
        recommendation: "Fix {subagent} to set metadata.delegation_depth to {implied}, one less than the agents in delegation_path",
        reask: "delegation_depth {depth} does not match a path of {length} agents; set it to {implied}",
      },
    },
  },
  check(context) {
    const metadata = context.value.metadata;
    if (!isObject(metadata)) return; // required-fields reports a missing or mistyped metadata
    const { maxDepth, requireFields, pathEnd, depthMatchesPath } = context.options;
    let problems = 0;

    for (const field of FIELDS) {
      if (requireFields !== "off" && (metadata[field] === undefined || metadata[field] === null)) problems += advise(context, requireFields, { messageId: "missingField", data: { field }, pointer: at(field) });
    }

    // null is absent, as required-fields counts it
    const agentType = metadata.agent_type ?? undefined;
    const agent = isName(agentType) ? agentType : undefined;
    if (agentType !== undefined && agent === undefined) {
      problems += fail(context, { messageId: "invalidAgentType", data: { received: shown(agentType) }, pointer: at("agent_type") });
    }

    const rawPath = metadata.delegation_path ?? undefined;
    let path: string[] | undefined;
    if (Array.isArray(rawPath)) {
      const entries = rawPath as unknown[];
      let names = true;
      for (let index = 0; index < entries.length; index += 1) {
        const entry = entries[index];
        if (isName(entry)) continue;
        names = false;
        problems += fail(context, { messageId: "pathEntryNotString", data: { index, received: shown(entry) }, pointer: at("delegation_path", index) });
      }
      if (names) path = entries as string[];
    } else if (rawPath !== undefined) {
      problems += fail(context, { messageId: "pathNotArray", data: { received: shown(rawPath) }, pointer: at("delegation_path") });
    }
    const pathText = path === undefined ? "unknown" : chain(path);

    const rawDepth = metadata.delegation_depth ?? undefined;
    const depth = Number.isInteger(rawDepth) && (rawDepth as number) >= 0 ? (rawDepth as number) : undefined;
    if (rawDepth !== undefined && depth === undefined) {
      problems += fail(context, { messageId: "invalidDepth", data: { received: shown(rawDepth), maxDepth }, pointer: at("delegation_depth") });
    } else if (depth !== undefined && depth > maxDepth) {
      problems += fail(context, { messageId: "maxDepthExceeded", data: { depth, maxDepth, path: pathText }, pointer: at("delegation_depth") });
    }

    if (path !== undefined) {
      // Each name's second appearance is a cycle, reported once. A short path without a repeat needs no map.
      if (path.length > SHORT_PATH || hasRepeat(path)) {
        const seen = new Map<string, number>();
        for (let index = 0; index < path.length; index += 1) {
          const name = path[index] ?? "";
          const times = (seen.get(name) ?? 0) + 1;
          seen.set(name, times);
          if (times === 2) problems += fail(context, { messageId: "cycleDetected", data: { repeated: name, index, path: pathText }, pointer: at("delegation_path", index) });
        }
      }
      const last = path.at(-1);
      // An advice turned off builds no descriptor.
      if (pathEnd !== "off") {
        if (last === undefined) problems += advise(context, pathEnd, { messageId: "emptyPath", pointer: at("delegation_path") });
        else if (agent !== undefined && !endsWith(last, agent)) {
          problems += advise(context, pathEnd, { messageId: "pathEndMismatch", data: { last, agentType: agent, path: pathText }, pointer: at("delegation_path") });
        }
      }
      if (depthMatchesPath !== "off" && depth !== undefined && path.length > 0 && depth !== path.length - 1) {
        const data = { depth, length: path.length, implied: path.length - 1, path: pathText };
        problems += advise(context, depthMatchesPath, { messageId: "depthMismatch", data, pointer: at("delegation_depth") });
      }
    }

    if (problems === 0 && depth !== undefined && path !== undefined) {
      context.pass({ messageId: "safe", data: { depth, maxDepth, path: pathText } });
    }
  },
});
