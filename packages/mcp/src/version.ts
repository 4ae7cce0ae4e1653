import { readFileSync } from "node:fs";

/** This package's version, from its package.json (dist/ and src/ both sit beside it). */
export const VERSION = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
