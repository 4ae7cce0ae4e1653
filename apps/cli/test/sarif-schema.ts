import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import AjvDraft04 from "ajv-draft-04";
import formats from "ajv-formats";

/**
 * The errors of a log against the SARIF 2.1.0 JSON Schema (draft-04) that `@microsoft/jest-sarif` ships as data
 * (`lib/schemas/sarif-2.1.0-rtm.5.json`, the schema of the OASIS standard as SchemaStore publishes it); none when it is valid.
 */
export const sarifErrors: (log: unknown) => string[] = (() => {
  const Ajv = AjvDraft04.default;
  // Its `language` pattern is not a valid Unicode regular expression; it is meant as a plain one.
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  formats.default(ajv);
  const file = createRequire(import.meta.url).resolve("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
  const validate = ajv.compile(JSON.parse(readFileSync(file, "utf8")) as object);
  return (log: unknown) => (validate(log) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ""}`));
})();
