#!/usr/bin/env node
// The bin inside this repository's workspace, where pnpm links it before anything is built: the
// published package names dist/returnlint.cjs itself (publishConfig.bin), and this file only
// hands over to it, or says what to run when the build has not made it yet.
"use strict";
const path = require("node:path");

const built = path.join(__dirname, "..", "dist", "returnlint.cjs");
try {
  require.resolve(built);
} catch {
  process.stderr.write(`returnlint: ${path.relative(process.cwd(), built) || built} is not built yet: run pnpm build in the repository first.\n`);
  process.exit(2);
}
require(built);
