import { writeOutput } from "../atomic.js";
import path from "node:path";
import { ReturnlintError } from "@returnlint/core";
import { formatterFor, type FormatterLoader } from "./index.js";
import type { FormatterInput, FormatterRun } from "@returnlint/api";

export interface Output {
  readonly format: string;
  readonly load: FormatterLoader;
  /** Absolute path of the file it goes to; standard output when undefined. */
  readonly file?: string;
}

/**
 * Pairs `--format` and `--output` by position, as Spectral does: the first file
 * receives the first format, and so on; formats left without a file go to standard
 * output. Checked before any input is read, so that a typo costs nothing.
 */
export function planOutputs(formats: readonly string[] | undefined, files: readonly string[] | undefined, cwd: string): Output[] {
  return pairOutputs(formats ?? [], files ?? [], cwd).map((output) => ({ ...output, load: formatterFor(output.format) }));
}

/** `--format` and `--output` paired (every command pairs them alike): each format checked by `known`, each file resolved and given once. */
export function pairOutputs(formats: readonly string[], files: readonly string[], cwd: string, known?: (format: string) => void): { readonly format: string; readonly file?: string }[] {
  const names = formats.length === 0 ? ["stylish"] : formats;
  if (files.length > names.length) {
    throw new ReturnlintError(
      "USAGE",
      `${String(files.length)} --output files for ${String(names.length)} --format value${names.length === 1 ? "" : "s"}: each --output FILE receives the --format at the same position.`,
    );
  }
  const seen = new Set<string>();
  return names.map((format, index) => {
    known?.(format);
    const target = files[index];
    if (target === undefined) return { format };
    if (target === "") throw new ReturnlintError("USAGE", "--output needs a file name; received an empty one.");
    const file = path.resolve(cwd, target);
    if (seen.has(file)) throw new ReturnlintError("USAGE", `--output ${target} is given twice: each format needs a file of its own.`);
    seen.add(file);
    return { format, file };
  });
}

/**
 * Renders every output, writes the files, then prints what goes to standard
 * output: when a file cannot be written, nothing is printed and the run exits 2.
 * Each output is one document for all the returns (`run` says whether several were
 * asked for). Files are never coloured. A file is written by atomic.ts's writeOutput:
 * a regular file is replaced whole, a device, FIFO or /dev/stdout is written in place.
 */
export async function emitOutputs(
  outputs: readonly Output[],
  inputs: readonly Omit<FormatterInput, "color">[],
  run: FormatterRun,
  io: { readonly color: boolean; stdout(text: string): void },
): Promise<void> {
  const rendered = await Promise.all(
    outputs.map(async (output) => {
      const format = await output.load();
      const color = output.file === undefined && io.color;
      return { file: output.file, text: format(inputs.map((input) => ({ ...input, color })), run) };
    }),
  );
  for (const { file, text } of rendered) if (file !== undefined) writeOutput(file, text);
  for (const { file, text } of rendered) if (file === undefined) io.stdout(text);
}
