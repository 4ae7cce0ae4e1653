import { codeOf, ReturnlintError } from "@returnlint/core";

/** What an errno code means, in the words of a sentence. */
const REASONS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EISDIR: "it is a directory",
  ENOTDIR: "a part of the path is not a directory",
  ENOENT: "no such file or directory",
  ELOOP: "too many symbolic links",
  ENAMETOOLONG: "the name is too long",
  EBADF: "the descriptor is not open for this (was it closed, or opened the other way?)",
  EIO: "an input/output error",
  EMFILE: "too many open files",
  ENFILE: "too many open files on the system",
  ENXIO: "nothing is at the other end (a FIFO nobody reads, or a socket)",
  EPIPE: "the reader went away",
  EAGAIN: "it would block",
  ETXTBSY: "the file is busy",
  EEXIST: "something by that name is in the way",
};

/** An errno error's reason as words, with its code: "no space left on the device (ENOSPC)". */
export function systemReason(error: unknown): string {
  const code = codeOf(error);
  if (code === undefined) return error instanceof Error ? error.message : String(error);
  const words = Object.hasOwn(REASONS, code) ? REASONS[code] : undefined;
  return words === undefined ? (error instanceof Error ? error.message : code) : `${words} (${code})`;
}

/** Whether `error` is the system refusing (an errno error), as opposed to a bug. */
export function isSystemError(error: unknown): boolean {
  return error instanceof Error && /^E[A-Z0-9]+$/.test(codeOf(error) ?? "");
}

/** "Cannot <what>: <reason>." as an environment error (exit 2), or `error` itself when it is already ours. */
export function environmentError(what: string, error: unknown): ReturnlintError {
  if (error instanceof ReturnlintError) return error;
  return new ReturnlintError("ENVIRONMENT", `Cannot ${what}: ${systemReason(error)}.`);
}
