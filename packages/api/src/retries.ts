// How often a failing return is sent back: the same bound for the stop hooks (their ledger on
// disk) and the framework adapters (in memory).

/** How many times a subagent is sent back by default before its failing return is let through. */
export const DEFAULT_MAX_BLOCKS = 3;

/** Why a failing return was let through. */
export type AllowedBecause = "max-blocks" | "repeated-feedback" | "stop-hook-active" | NotValidated;
/** Why a return could not be validated: the config is broken, or a rule crashed or the check itself failed. */
export type NotValidated = "config-error" | "internal-error";

/** What is known of a subagent's earlier attempts. */
export interface RetryRecord {
  /** How many times it was sent back. */
  readonly blocks: number;
  /** The digest of the problems last sent back (`problemsDigest`), null when none were. */
  readonly lastProblems: string | null;
}

export type RetryDecision = { readonly kind: "pass" } | { readonly kind: "block"; readonly digest: string } | { readonly kind: "allow"; readonly because: AllowedBecause };

/**
 * Whether a return goes through, is sent back, or is let through failing, in this order: a pass;
 * a return that could not be validated (`giveWay`); another hook already holding the agent, before
 * our first block (we do not stack a second loop on it); `maxBlocks` reached; the same problems as
 * the ones last sent back (sending them again would change nothing); else sent back.
 */
export function retryDecision(
  previous: RetryRecord | undefined,
  input: {
    readonly failing: boolean;
    /** The digest of the problems, worked out only when it decides: a pass loads no node:crypto. */
    readonly digest: () => string;
    readonly maxBlocks: number;
    readonly giveWay?: AllowedBecause;
    readonly otherHookHolding?: boolean;
  },
): RetryDecision {
  const blocks = previous?.blocks ?? 0;
  if (!input.failing) return { kind: "pass" };
  if (input.giveWay !== undefined) return { kind: "allow", because: input.giveWay };
  if (input.otherHookHolding === true && blocks === 0) return { kind: "allow", because: "stop-hook-active" };
  if (blocks >= input.maxBlocks) return { kind: "allow", because: "max-blocks" };
  const digest = input.digest();
  return previous?.lastProblems === digest ? { kind: "allow", because: "repeated-feedback" } : { kind: "block", digest };
}
