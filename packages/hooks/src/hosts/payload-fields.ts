import { isObject, jsonType } from "@returnlint/core";

/**
 * The fields of a hook's JSON payload, read for every host the same way: each problem a clause,
 * all of them said in one sentence, so that a broken payload is fixed in one go.
 */
export class PayloadFields {
  readonly problems: string[] = [];

  private constructor(readonly value: Readonly<Record<string, unknown>>) {}

  /** The payload as a JSON object, or the sentence saying why standard input is not one. */
  static read(text: string): PayloadFields | { readonly reason: string } {
    if (text.trim() === "") return { reason: "standard input is empty (expected the hook's JSON payload)" };
    let value: unknown;
    try {
      value = JSON.parse(text) as unknown;
    } catch {
      return { reason: "standard input is not JSON (expected the hook's JSON payload)" };
    }
    if (!isObject(value)) return { reason: `the payload must be a JSON object; received ${jsonType(value)}` };
    return new PayloadFields(value);
  }

  /** A string field: absent (or null) is undefined, or a problem when `required`; "" counts as absent unless required. */
  string(key: string, required = false): string | undefined {
    const field = this.value[key];
    if (field === undefined || field === null) {
      if (required) this.problems.push(`"${key}" is missing`);
      return undefined;
    }
    if (typeof field === "string" && field !== "") return field;
    if (typeof field === "string" && !required) return undefined;
    this.problems.push(`"${key}" must be a non-empty string; received ${jsonType(field)}`);
    return undefined;
  }

  /** A boolean field; absent is false. */
  boolean(key: string): boolean {
    const field = this.value[key];
    if (field === undefined || field === null) return false;
    if (typeof field === "boolean") return field;
    this.problems.push(`"${key}" must be a boolean; received ${jsonType(field)}`);
    return false;
  }

  /** The problems found so far, as the one sentence a broken payload gets; undefined when there are none. */
  get reason(): string | undefined {
    return this.problems.length === 0 ? undefined : this.problems.join("; ");
  }
}
