// dist/returnlint-vendored.cjs: returnlint in one file, which `returnlint init claude --vendor` copies
// into a project that has no package.json or node_modules (a hook command runs it with `node`).
// It is the bin's loader (src/loader.cjs) followed by the bundle and every chunk, each as a run of
// `//` comment lines: V8 skips a comment at the speed of a search for the end of a line, where a
// string literal of the same megabyte would cost a `node -e 0` third again. The loader's EMBEDDED
// line says where each file's lines are (byte offset and length in this file); a run reads and
// compiles only the files it needs, as the package's bin does. Code caches cannot ship with it (V8
// takes only those of the Node version that made them): the loader writes them on a machine's
// first run, under the copy's id, a hash of what it embeds.
import { Buffer, isAscii } from "node:buffer";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

const EMBEDDED_LINE = "const EMBEDDED = null;";
const ID_LINE = 'const EMBEDDED_ID = "";';

/** A file as comment lines: `//` before it and after each of its line feeds; the loader takes every "\n//" back to "\n". */
function commented(name, text) {
  // Any other line terminator would end a comment line and leave code behind it.
  const terminator = /[\r\u2028\u2029]/.exec(text);
  if (terminator !== null) throw new Error(`dist/${name} has a line terminator other than \\n (U+${terminator[0].codePointAt(0).toString(16).padStart(4, "0")}): it cannot be embedded as comment lines`);
  return `//${text.replaceAll("\n", "\n//")}`;
}

/** Writes the vendored copy from dist/ as the build left it (cli.cjs wrapped, the chunks beside it). */
export function writeVendored(cli, dist) {
  const loader = readFileSync(new URL("src/loader.cjs", cli), "utf8");
  for (const line of [EMBEDDED_LINE, ID_LINE]) {
    if (!loader.includes(line)) throw new Error(`src/loader.cjs has no "${line}" line: the vendored copy's files go there`);
  }
  const names = ["cli.cjs", ...readdirSync(new URL("chunks/", dist)).filter((entry) => entry.endsWith(".cjs")).sort().map((entry) => `chunks/${entry}`)];
  const bodies = names.map((name) => Buffer.from(commented(name, readFileSync(new URL(name, dist), "utf8")), "utf8"));
  const id = createHash("sha256").update(Buffer.concat(bodies)).digest("hex").slice(0, 16);
  // The offsets depend on the header's length, which depends on the offsets: the header is made
  // with every offset padded to a fixed width, so that its length is known before they are.
  const width = 10;
  const header = (offsets) =>
    `${loader
      .replace(EMBEDDED_LINE, () => `const EMBEDDED = {${names.map((name, index) => `${JSON.stringify(name)}: [${String(offsets[index]).padStart(width)}, ${String(bodies[index].length - 2).padStart(width)}]`).join(", ")}};`)
      .replace(ID_LINE, () => `const EMBEDDED_ID = "${id}";`)
      .trimEnd()}\n// The bundle and its chunks, read by the loader above (EMBEDDED):\n`;
  const start = Buffer.byteLength(header(names.map(() => 0)), "utf8");
  const offsets = [];
  let at = start;
  for (const body of bodies) {
    offsets.push(at + 2);
    at += body.length + 1;
  }
  const text = header(offsets);
  if (Buffer.byteLength(text, "utf8") !== start) throw new Error("the vendored copy's header changed length with its offsets");
  // One non-ASCII character would make Node read the whole file as a two-byte string, twice the
  // bytes for V8 to scan at every start: esbuild writes ASCII, and so must the loader.
  const notAscii = [["src/loader.cjs", Buffer.from(text, "utf8")], ...names.map((name, index) => [`dist/${name}`, bodies[index]])].find(([, bytes]) => !isAscii(bytes));
  if (notAscii !== undefined) throw new Error(`${notAscii[0]} is not all ASCII: the vendored copy must be`);
  writeFileSync(new URL("returnlint-vendored.cjs", dist), Buffer.concat([Buffer.from(text, "utf8"), ...bodies.flatMap((body) => [body, Buffer.from("\n")])]), { mode: 0o644 });
}
