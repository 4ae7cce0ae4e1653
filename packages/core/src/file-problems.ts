import type { FileProblem } from "./types.js";

/** Why a path is not a file a return may point to, in words a message can end with. */
export const FILE_PROBLEM_REASON: Readonly<Record<FileProblem, string>> = {
  emptyPath: "the path is empty",
  nulByte: "the path holds a NUL byte",
  absolute: "the path is absolute; it must be relative to the project root",
  homeRelative: "the path starts with ~; it must be relative to the project root",
  escapesRoot: "the path leads outside the project root",
  symlinkEscapesRoot: "a symbolic link on the path leads outside the project root",
  symlinkLoop: "symbolic links on the path form a loop",
  notFound: "no such file",
  notAFile: "it is not a regular file",
  nameTooLong: "a name on the path is too long",
  unreadable: "it cannot be read",
  returnFile: "it is the return file itself",
};
