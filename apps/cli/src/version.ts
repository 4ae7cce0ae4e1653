declare const RETURNLINT_VERSION: string | undefined;

/**
 * returnlint's version, as the build writes it into the bundle; the commands' sources run unbundled
 * (in tests) have none, and say so, so that what is keyed on a version (the audit cache) never
 * mixes a source run's results with a release's.
 */
export function returnlintVersion(): string {
  return typeof RETURNLINT_VERSION === "string" ? RETURNLINT_VERSION : "0.0.0-unbundled";
}
