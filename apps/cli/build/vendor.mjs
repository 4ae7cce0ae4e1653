// dist/returnlint-vendored.cjs and dist/returnlint-vendored.pack: returnlint in two files, which
// `returnlint init HOST --vendor` copies into a project that has no package.json or node_modules (a
// hook command runs the first with `node`). The first is the bin's loader (src/loader.cjs); the
// second, beside it, the bundle and every chunk, packed: one brotli stream. Node reads and scans the
// whole of the file it runs at every start (the pack as half a megabyte of base64 on a comment line
// of the same file cost every hook stop a tenth of a `node -e 0`), so the file it runs is the loader
// alone, and the pack is read only by a run that unpacks a file its copy's folder does not hold yet
// (the loader writes it there, beside its code cache). The loader's EMBEDDED line says where each
// file is in the unpacked stream, EMBEDDED_PACK the pack's size; EMBEDDED_ID, a hash of what it
// packs, names the folder.
import { Buffer, isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

import { shippedLoader } from "./bin.mjs";

/** The loader's lines that this copy fills in, as `shippedLoader` writes them. */
const EMBEDDED_LINE = "const EMBEDDED=null;";
const PACK_LINE = "const EMBEDDED_PACK=null;";
const ID_LINE = 'const EMBEDDED_ID="";';

/**
 * Brotli's quality 9: within a tenth of its best on these files, in a twentieth of the time (the
 * build packs a megabyte and a half at every run).
 */
const QUALITY = 9;

/** Writes the vendored copy from dist/ as the build left it (cli.cjs wrapped, the chunks beside it). */
export function writeVendored(cli, dist) {
  const loader = shippedLoader(cli);
  for (const line of [EMBEDDED_LINE, PACK_LINE, ID_LINE]) {
    if (!loader.includes(line)) throw new Error(`src/loader.cjs has no "${line.replace("=", " = ")}" line: the vendored copy's files go there`);
  }
  const names = ["cli.cjs", ...readdirSync(new URL("chunks/", dist)).filter((entry) => entry.endsWith(".cjs")).sort().map((entry) => `chunks/${entry}`)];
  const files = names.map((name) => readFileSync(new URL(name, dist)));
  // One non-ASCII character would make the loader read a file as a two-byte string, twice the bytes
  // for V8 to scan at every start: esbuild writes ASCII, and so must the loader.
  const notAscii = [["src/loader.cjs", Buffer.from(loader, "utf8")], ...names.map((name, index) => [`dist/${name}`, files[index]])].find(([, bytes]) => !isAscii(bytes));
  if (notAscii !== undefined) throw new Error(`${notAscii[0]} is not all ASCII: the vendored copy must be`);
  // The copy compiles each with node:vm, which gives a script no loader for import(): one would fail
  // at run time ("A dynamic import callback was not specified"). The custom rules' thread is a file
  // Node runs as a worker, with its loader.
  const importing = names.find((name, index) => name !== "chunks/rule-worker.cjs" && files[index].includes("import("));
  if (importing !== undefined) throw new Error(`dist/${importing} has an import(): the vendored copy compiles it with node:vm, which cannot load it (build it with supported: { "dynamic-import": false })`);
  const all = Buffer.concat(files);
  const id = createHash("sha256").update(all).digest("hex").slice(0, 16);
  const pack = brotliCompressSync(all, { params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: all.length } });
  const where = {};
  let at = 0;
  for (const [index, name] of names.entries()) {
    where[name] = [at, files[index].length];
    at += files[index].length;
  }
  const text = `${loader
    .replace(EMBEDDED_LINE, () => `const EMBEDDED=${JSON.stringify(where)};`)
    .replace(PACK_LINE, () => `const EMBEDDED_PACK=${String(pack.length)};`)
    .replace(ID_LINE, () => `const EMBEDDED_ID="${id}";`)
    .trimEnd()}\n`;
  writeFileSync(new URL("returnlint-vendored.cjs", dist), text, { mode: 0o644 });
  writeFileSync(new URL("returnlint-vendored.pack", dist), pack, { mode: 0o644 });
}
