// dist/returnlint-vendored.cjs: returnlint in one file, which `returnlint init claude --vendor` copies
// into a project that has no package.json or node_modules (a hook command runs it with `node`).
// It is the bin's loader (src/loader.cjs) followed by the bundle and every chunk, packed: one
// brotli stream in base64 on a single `//` comment line. Node reads and scans the whole file at every
// start (a megabyte of comment lines cost a `node -e 0` a fifth again), so what it reads is kept to a
// third of the files' size; a run unpacks a file only when the copy's folder does not hold it yet
// (the loader writes it there, beside its code cache). The loader's EMBEDDED line says where each
// file is in the unpacked stream, EMBEDDED_PACK where the pack is in this file; EMBEDDED_ID, a hash
// of what it packs, names the folder.
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
  const pack = brotliCompressSync(all, { params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: all.length } }).toString("base64");
  const where = {};
  let at = 0;
  for (const [index, name] of names.entries()) {
    where[name] = [at, files[index].length];
    at += files[index].length;
  }
  // The pack's offset depends on the header's length, which depends on the offset: it is written
  // padded to a fixed width, so that the header's length is known before it is.
  const width = 10;
  const header = (offset) =>
    `${loader
      .replace(EMBEDDED_LINE, () => `const EMBEDDED=${JSON.stringify(where)};`)
      .replace(PACK_LINE, () => `const EMBEDDED_PACK=[${String(offset).padStart(width)}, ${String(pack.length)}];`)
      .replace(ID_LINE, () => `const EMBEDDED_ID="${id}";`)
      .trimEnd()}\n// The bundle and its chunks, packed, read by the loader above (EMBEDDED_PACK):\n//`;
  const offset = Buffer.byteLength(header(0), "utf8");
  const text = header(offset);
  if (Buffer.byteLength(text, "utf8") !== offset) throw new Error("the vendored copy's header changed length with its offset");
  writeFileSync(new URL("returnlint-vendored.cjs", dist), `${text}${pack}\n`, { mode: 0o644 });
}
