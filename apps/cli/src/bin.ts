#!/usr/bin/env node
import { main } from "./main.js";

const color = process.stdout.isTTY && process.env.NO_COLOR === undefined && process.env.TERM !== "dumb";

process.exitCode = await main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdin: process.stdin,
  color,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
