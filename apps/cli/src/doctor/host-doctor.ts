import type { LoadedConfig } from "@returnlint/core";

/**
 * `returnlint doctor`'s contract with each host: what a host's checks see of the project, and the
 * lines they answer. One file per host (apps/cli/src/doctor/HOST.ts) exports a HostDoctor; the
 * command runs those the project sets up (or the one --host names) and exits 1 when a line fails.
 */

/** How a line reads: fine, worth knowing, or a setup that cannot work (exit 1). */
export type DoctorLevel = "ok" | "warn" | "fail";

/** One finding, a sentence a person understands: what is wrong, and what to do about it. */
export interface DoctorLine {
  readonly level: DoctorLevel;
  readonly text: string;
}

/** What every host's checks see of the project. */
export interface DoctorContext {
  /** The project's root (the folder doctor runs in). */
  readonly root: string;
  /** The project's returnlint config; undefined when there is none or it is broken (configError says why). */
  readonly config: LoadedConfig | undefined;
  readonly configError?: string;
  /** The environment the host would run its hook in (HOME, CODEX_HOME, COPILOT_HOME, …). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface HostDoctor {
  /** The host's name, as `returnlint hook NAME` and `--host NAME` say it. */
  readonly host: string;
  /** The product's name ("Claude Code"). */
  readonly title: string;
  /** Whether the project sets this host up at all (one of its settings files is there): `doctor` without --host checks only these. */
  present(context: DoctorContext): boolean;
  /** The checks, in the order a person fixes them. */
  check(context: DoctorContext): readonly DoctorLine[] | Promise<readonly DoctorLine[]>;
}
