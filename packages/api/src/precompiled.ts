import type { SchemaValidator } from "@returnlint/core";

/**
 * The built-in rules' options schemas and the config schema, compiled ahead of time, by
 * rule id ("config" for the config schema). Here, as the sources are (tests, `tsc`),
 * there are none and ajv compiles them when a config is loaded; the bundles that
 * build.mjs writes replace this module with ajv's standalone code for every one.
 */
export const PRECOMPILED: Readonly<Record<string, SchemaValidator>> | undefined = undefined;
