#!/usr/bin/env node
// The `returnlint` bin. It runs dist/cli.cjs, compiled with the V8 code cache that the
// build wrote next to it (dist/cli.cjs.cache): that skips most of the compilation of the
// bundle, a few milliseconds of every run. Without a usable cache (another Node version,
// a cache that is missing) V8 compiles it from source. The bundle requires a few chunks the
// same way, each with its own cache (`returnlintHost.requireChunk`).
"use strict";
const { readFileSync } = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { isAscii } = require("node:buffer");

/** The scripts compiled here, by file: the build's training writes their caches. */
const scripts = new Map();

/** A CommonJS file of this package compiled with its code cache (`FILE.cache`) when there is one. */
function compile(file) {
  let cachedData;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined;
  }
  // An ASCII bundle (the usual case) is read as Latin-1: one byte per character, no UTF-8 decoding,
  // and half the memory V8 then scans (one non-ASCII character would make it a two-byte string).
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
  // Node's own CommonJS wrapper, written out (node:module would load the ESM loader's modules too),
  // with one more parameter: the host. The bundle starts with a hashbang, which is valid only at the
  // very start of a script: it becomes a comment (a slice and a concatenation, no copy of the bundle).
  const body = source.startsWith("#!") ? `//${source.slice(2)}` : source;
  const wrapped = `(function (exports, require, module, __filename, __dirname, returnlintHost) { ${body}\n});`;
  // Without a usable cache (none yet, another Node version) V8 compiles from source as usual.
  const script = new vm.Script(wrapped, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  scripts.set(file, script);
  return script;
}

/** Runs a compiled file as a module; its require is this module's, which resolves the bundle's chunks (./chunks/…) as the bundle sits beside this file. */
function run(file, script) {
  const compiled = { exports: {}, filename: file, id: file, loaded: false };
  script.runInThisContext().call(compiled.exports, compiled.exports, require, compiled, file, path.dirname(file), host);
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
// Custom rules run in a thread of their own, from the bundled copy of core's rule thread (core's isolation.ts).
globalThis[Symbol.for("returnlint.ruleWorker")] = path.join(__dirname, "chunks", "rule-worker.cjs");

const file = path.join(__dirname, "cli.cjs");
const script = compile(file);

/** Runs the CLI once, with process.argv. */
function runCli() {
  chunks.clear();
  run(file, script);
}

/** Every compiled file and its code cache now: what the runs so far compiled. */
function codeCaches() {
  return [...scripts].map(([compiled, compiledScript]) => [compiled, compiledScript.createCachedData()]);
}

// The build's training (build/train-code-cache.cjs, which sets RETURNLINT_CODE_CACHE_RUNS) requires
// this file and runs the CLI several times in one process: the caches hold every function those runs
// compiled. Required any other way (dist/returnlint.js) or run, it is the CLI.
if (process.env.RETURNLINT_CODE_CACHE_RUNS !== undefined && require.main !== module) {
  module.exports = { run: runCli, codeCaches };
} else {
  runCli();
}
