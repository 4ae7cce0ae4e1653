#!/usr/bin/env node
// The `returnlint` bin. It runs dist/cli.cjs, compiled with the V8 code cache that the
// build wrote next to it (dist/cli.cjs.cache): that skips most of the compilation of the
// bundle, a few milliseconds of every run. Without a usable cache (another Node version,
// a cache that is missing) V8 compiles it from source. The bundle requires a few chunks the
// same way, each with its own cache (`returnlintHost.requireChunk`).
//
// The same loader is the self-contained copy `returnlint init claude --vendor` puts in a project
// (dist/returnlint-vendored.cjs, build/vendor.mjs): there the bundle and every chunk are packed into
// one brotli stream in a file beside it (`returnlint.pack` next to `returnlint.cjs`), and the two run
// with nothing else. Node reads and scans the whole of the file it runs at every start (half a
// megabyte of packed text in it cost a hook a tenth of a `node -e 0`), so the file it runs holds
// this loader alone. The first run on a machine that needs a file unpacks it into a folder beside
// the copy that git ignores (VENDORED_CACHE), with the code cache V8 makes for it (caches cannot
// ship: V8 takes only those of the Node version that made them), and the runs after it read both
// from there, as fast as the package's bin: the pack is read only to unpack.
"use strict";
/**
 * Node's built-in modules as they are, without a trip through the module loader's resolution
 * (`require` of a built-in costs several times more); on a Node without
 * `process.getBuiltinModule` (before 20.16), `require`.
 */
const builtin = process.getBuiltinModule ?? require;
const { closeSync, fstatSync, openSync, readSync } = builtin("node:fs");
const path = builtin("node:path");
const vm = builtin("node:vm");
const { Buffer, isAscii } = builtin("node:buffer");

/**
 * In the vendored copy, whose build replaces this line: where each of the package's files
 * (`cli.cjs`, `chunks/NAME.cjs`) is in the unpacked pack (PACK_FILE), as `[byte offset, length]`;
 * null in the package, which reads them beside this file.
 */
const EMBEDDED = null;
/** In the vendored copy: the size in bytes of its pack, the brotli-compressed files, in PACK_FILE. */
const EMBEDDED_PACK = null;
/** The vendored copy's identity (a hash of the files it packs, written by its build): what it unpacks and its code caches are kept under it. */
const EMBEDDED_ID = "";
/** The self-contained copy of returnlint, for `init claude --vendor`: this file when it is one, else the package's. */
const SELF_CONTAINED = EMBEDDED === null ? path.join(__dirname, "returnlint-vendored.cjs") : __filename;
/** The self-contained copy's pack: the file beside it with its name, `.pack` for `.cjs` (`returnlint.pack`). */
const PACK_FILE = path.join(path.dirname(SELF_CONTAINED), `${path.basename(SELF_CONTAINED, path.extname(SELF_CONTAINED))}.pack`);

/**
 * Node's own CommonJS wrapper, written out (node:module would load the ESM loader's modules too),
 * with one more parameter: the host. The build writes dist/cli.cjs already wrapped (build/bin.mjs
 * reads this line), so its text is the script as it is read: no concatenation that V8 would have
 * to copy into one string of the bundle's length. A chunk is a plain CommonJS file, wrapped here.
 */
const WRAPPER = "(function (exports, require, module, __filename, __dirname, returnlintHost) { ";

/** The scripts compiled here, by file: the build's training writes their caches. */
const scripts = new Map();

/**
 * One buffer for every file read here, as large as the largest: a file's bytes are needed only
 * until its text or its cache has been handed to V8, and memory a process touches for the first
 * time costs a page fault per 4 KiB (13 to 15 microseconds each on the virtual machines the bench ran on).
 */
let buffer = Buffer.allocUnsafeSlow(0);

/** An open file and its size; throws Node's error (its code and the path) when it cannot be opened. */
function opened(file) {
  const fd = openSync(file, "r");
  try {
    return { fd, size: fstatSync(fd).size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** `opened`, or undefined for a file that may be missing (a code cache). */
function openedIfThere(file) {
  try {
    return opened(file);
  } catch {
    return undefined;
  }
}

/** The bytes of an `opened` file, read into `buffer` (a view of it, valid until the next read); closes it. */
function readAll({ fd, size }) {
  try {
    let filled = 0;
    for (let read = -1; read !== 0 && filled < size; filled += read) read = readSync(fd, buffer, filled, size - filled, null);
    return buffer.subarray(0, filled);
  } finally {
    closeSync(fd);
  }
}

/**
 * The commands whose runs have a code cache of cli.cjs of their own (`cli.cjs.COMMAND.cache`), made
 * by training runs of that command alone: a check runs once per return and the hook once per subagent
 * stop, and V8 deserialises the whole of a cache at every start, so each gets only what it compiles.
 * Every other command takes `cli.cjs.cache`, trained on them all.
 */
const COMMANDS_WITH_A_CACHE = ["check", "hook"];

/** The build's training compiles without a cache: what it writes holds what its runs compiled, nothing an older cache brought. */
const TRAINING = process.env.RETURNLINT_CODE_CACHE_RUNS !== undefined && require.main !== module;

/** The command this run gives (`returnlint COMMAND ...`; in training, the one trained). */
const givenCommand = TRAINING ? process.env.RETURNLINT_CODE_CACHE_COMMAND : process.argv[2];

/** `givenCommand` when it has a cache of its own, else undefined. */
const cacheCommand = COMMANDS_WITH_A_CACHE.includes(givenCommand) ? givenCommand : undefined;

/** Where a file's code cache is: cli.cjs's for this run's command (`COMMANDS_WITH_A_CACHE`), else `FILE.cache`. */
function cacheOf(file) {
  return cacheCommand !== undefined && path.basename(file) === "cli.cjs" ? `${file}.${cacheCommand}.cache` : `${file}.cache`;
}

/** A file of this package compiled with its code cache (`cacheOf`) when there is one; from EMBEDDED, without one, in the vendored copy. */
function compile(file) {
  if (EMBEDDED !== null) return compileEmbedded(file);
  const code = opened(file);
  const cache = TRAINING ? undefined : openedIfThere(cacheOf(file));
  const largest = Math.max(code.size, cache?.size ?? 0);
  if (buffer.length < largest) buffer = Buffer.allocUnsafeSlow(largest);
  const bytes = readAll(code);
  // An ASCII bundle (the usual case) is read as Latin-1: one byte per character, no UTF-8 decoding,
  // and half the memory V8 then scans (one non-ASCII character would make it a two-byte string).
  const text = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  // cli.cjs comes wrapped (and its hashbang made a comment) from the build; a chunk is wrapped here.
  const source = text.startsWith(WRAPPER) ? text : `${WRAPPER}${text}\n});`;
  let cachedData;
  try {
    cachedData = cache === undefined ? undefined : readAll(cache);
  } catch {
    cachedData = undefined;
  }
  // Without a usable cache (none yet, another Node version) V8 compiles from source as usual.
  const script = new vm.Script(source, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  scripts.set(file, script);
  return script;
}

/** A chunk as the bundle and the chunks require it: `./chunks/NAME.cjs` from cli.cjs, `./NAME.cjs` from a chunk beside it. */
const CHUNK_REQUIRE = /^\.\/(?:chunks\/)?([\w-]+)\.cjs$/;

/**
 * Where the vendored copy keeps the files it unpacked and their code caches: beside itself (inside
 * the project it was copied into, never in the user's home), one folder per copy, Node version and
 * architecture, in a folder that ignores itself in git (its `.gitignore` holds `*`), readable by
 * the user alone.
 */
const CACHE_ROOT = path.join(__dirname, ".returnlint-cache");
const VENDORED_CACHE = EMBEDDED === null ? undefined : path.join(CACHE_ROOT, `${EMBEDDED_ID}-${process.version}-${process.arch}`);

/** Makes the cache folder, ignored by git, when it is not there yet. */
function makeCacheFolder(fs) {
  if (!fs.existsSync(VENDORED_CACHE)) fs.mkdirSync(VENDORED_CACHE, { recursive: true, mode: 0o700 });
  const ignore = path.join(CACHE_ROOT, ".gitignore");
  if (!fs.existsSync(ignore)) fs.writeFileSync(ignore, "# returnlint's unpacked files and code caches for this machine: never committed.\n*\n", { mode: 0o600 });
}
/** What this run unpacked or compiled without a usable cache, to be written into the copy's folder when the process exits: `[file, bytes or a function that makes them]`. */
const pending = [];

/** The vendored copy's files, unpacked once per run that needs one its folder does not hold yet. */
let unpacked;

/**
 * The files the pack holds, one after another, decompressed (node:zlib is loaded only here). A pack
 * that is missing or is another copy's (its size is not EMBEDDED_PACK) is said in one sentence.
 */
function unpack() {
  if (unpacked !== undefined) return unpacked;
  const fix = `the vendored copy is ${path.basename(__filename)} with ${path.basename(PACK_FILE)} beside it, both written by \`returnlint init HOST --vendor\``;
  let pack;
  try {
    pack = opened(PACK_FILE);
  } catch (error) {
    throw new Error(`${PACK_FILE} cannot be read (${error instanceof Error && "code" in error ? String(error.code) : String(error)}): ${fix}`, { cause: error });
  }
  if (pack.size !== EMBEDDED_PACK) {
    closeSync(pack.fd);
    throw new Error(`${PACK_FILE} is not this copy's pack (${String(pack.size)} bytes, not ${String(EMBEDDED_PACK)}): ${fix}`);
  }
  // Read into the one buffer: what it held has been handed to V8 already, and the pack is needed only until it is decompressed.
  if (buffer.length < pack.size) buffer = Buffer.allocUnsafeSlow(pack.size);
  unpacked = builtin("node:zlib").brotliDecompressSync(readAll(pack));
  return unpacked;
}

/**
 * The text of one of the vendored copy's files (`cli.cjs`, `chunks/NAME.cjs`): from its folder when
 * an earlier run unpacked it there whole (its length is the one EMBEDDED gives), else from the pack,
 * written into the folder when the process exits.
 */
function embeddedText(name, cacheSize) {
  const where = EMBEDDED[name];
  if (where === undefined) throw new Error(`${name} is not part of this copy of returnlint`);
  const [offset, length] = where;
  const unpackedFile = path.join(VENDORED_CACHE, name.replace("/", "-"));
  const there = openedIfThere(unpackedFile);
  let bytes;
  if (there !== undefined && there.size === length) {
    // Sized for the code cache read after it too: one buffer, its pages faulted in once.
    if (buffer.length < Math.max(length, cacheSize)) buffer = Buffer.allocUnsafeSlow(Math.max(length, cacheSize));
    try {
      bytes = readAll(there);
    } catch {
      bytes = undefined;
    }
  } else if (there !== undefined) {
    closeSync(there.fd);
  }
  if (bytes === undefined || bytes.length !== length) {
    bytes = unpack().subarray(offset, offset + length);
    pendingWrite(unpackedFile, bytes);
  }
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}

/** A file of the vendored copy compiled from EMBEDDED, with the code cache an earlier run on this machine wrote. */
function compileEmbedded(file) {
  const name = path.relative(__dirname, file);
  const cacheFile = cacheOf(path.join(VENDORED_CACHE, name.replace("/", "-")));
  const cache = openedIfThere(cacheFile);
  let text;
  try {
    text = embeddedText(name, cache?.size ?? 0);
  } catch (error) {
    if (cache !== undefined) closeSync(cache.fd);
    throw error;
  }
  let cachedData;
  if (cache !== undefined) {
    if (buffer.length < cache.size) buffer = Buffer.allocUnsafeSlow(cache.size);
    try {
      cachedData = readAll(cache);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(text.startsWith(WRAPPER) ? text : `${WRAPPER}${text}\n});`, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  if (cachedData === undefined || script.cachedDataRejected === true) pendingWrite(cacheFile, () => script.createCachedData());
  scripts.set(file, script);
  return script;
}

/** Writes `content` (or what it gives, then) to `file` in the copy's folder when the process exits. */
function pendingWrite(file, content) {
  if (pending.length === 0) process.once("exit", writePending);
  pending.push([file, content]);
}

/** At exit: what this run unpacked, and the caches of what it compiled without one, each written whole (a temporary file renamed); a failure only costs the next run its speed. */
function writePending() {
  const fs = builtin("node:fs");
  const { renameSync, writeFileSync } = fs;
  try {
    makeCacheFolder(fs);
    for (const [file, content] of pending) {
      const temporary = `${file}.${String(process.pid)}.tmp`;
      writeFileSync(temporary, typeof content === "function" ? content() : content, { mode: 0o600 });
      renameSync(temporary, file);
    }
  } catch {
    // A read-only or full folder: the next run compiles from source again.
  }
}

/**
 * The require a compiled file gets: built-in modules (`node:...`, as the bundles write them) from
 * `builtin`; a chunk, whether cli.cjs or a chunk beside it asks, from dist/chunks/ through Node's
 * require (the vendored copy, which has no chunk beside it, takes it from EMBEDDED); anything else
 * through this module's require.
 */
function requireFromBundle(id) {
  if (id.startsWith("node:")) return builtin(id);
  const chunk = CHUNK_REQUIRE.exec(id);
  if (chunk === null) return require(id);
  return EMBEDDED === null ? require(path.join(__dirname, "chunks", `${chunk[1]}.cjs`)) : host.requireChunk(chunk[1]);
}

/** Runs a compiled file as a module. */
function run(file, script) {
  const compiled = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(compiled.exports, compiled.exports, requireFromBundle, compiled, file, path.dirname(file), host);
  return compiled.exports;
}

const chunks = new Map();

// cli.cjs has no import() of its own (node:vm would give it no module loader on Node 20):
// it imports config files, rules and presets through this module's, handed to it as
// `returnlintHost` (src/bin.ts), which core takes as its importer.
const host = {
  importFile: (url) => import(url),
  /** dist/chunks/NAME.cjs, once, compiled with its code cache. */
  requireChunk(name) {
    let exports = chunks.get(name);
    if (exports === undefined) {
      const chunk = path.join(__dirname, "chunks", `${name}.cjs`);
      exports = run(chunk, compile(chunk));
      chunks.set(name, exports);
    }
    return exports;
  },
};
// Two threads run from files of their own: custom rules' (core's isolation.ts), started when a config
// first names a custom rule, and scan's finding thread (scan/find-ahead.ts). The vendored copy has no
// file beside it: it writes a thread's script into its cache folder when the thread is first asked
// for, and hands that file.
for (const [key, name] of [["returnlint.ruleWorker", "chunks/rule-worker.cjs"], ["returnlint.findThread", "chunks/find-thread.cjs"]]) {
  if (EMBEDDED === null) globalThis[Symbol.for(key)] = path.join(__dirname, name);
  else Object.defineProperty(globalThis, Symbol.for(key), { get: () => vendoredThread(name), configurable: true });
}
// `returnlint init claude --vendor` copies this returnlint, the loader and its pack, into a project.
globalThis[Symbol.for("returnlint.selfContained")] = [SELF_CONTAINED, PACK_FILE];

/** A thread's script, NAME in the vendored copy's pack, as a file in its folder (unpacked whole, once); undefined when it cannot be written. */
function vendoredThread(name) {
  const fs = builtin("node:fs");
  const { renameSync, statSync, writeFileSync } = fs;
  const [offset, length] = EMBEDDED[name];
  const file = path.join(VENDORED_CACHE, name.replace("/", "-"));
  try {
    if (statSync(file, { throwIfNoEntry: false })?.size !== length) {
      makeCacheFolder(fs);
      const temporary = `${file}.${String(process.pid)}.tmp`;
      writeFileSync(temporary, unpack().subarray(offset, offset + length), { mode: 0o600 });
      renameSync(temporary, file);
    }
    return file;
  } catch {
    return undefined;
  }
}

const file = path.join(__dirname, "cli.cjs");
/** The bundle, compiled; a broken install (the bundle missing or damaged) is said in one sentence, exit 2. */
const script = (() => {
  try {
    return compile(file);
  } catch (error) {
    process.stderr.write(`returnlint: cannot load its bundle (${error instanceof Error ? error.message : String(error)}); reinstall returnlint\n`);
    return process.exit(2);
  }
})();

/** Runs the CLI once, with process.argv. */
function runCli() {
  chunks.clear();
  run(file, script);
}

/**
 * Where each compiled file's code cache goes (`cacheOf`) and the cache now: what the runs so far
 * compiled. A command's own training makes cli.cjs's cache for that command alone.
 */
function codeCaches() {
  return [...scripts]
    .filter(([compiled]) => cacheCommand === undefined || compiled === file)
    .map(([compiled, compiledScript]) => [cacheOf(compiled), compiledScript.createCachedData()]);
}

// The build's training (build/train-code-cache.cjs, which sets RETURNLINT_CODE_CACHE_RUNS) requires
// this file and runs the CLI several times in one process: the caches hold every function those runs
// compiled. Required any other way (dist/returnlint.js) or run, it is the CLI.
if (TRAINING) {
  module.exports = { run: runCli, codeCaches };
} else {
  runCli();
}
