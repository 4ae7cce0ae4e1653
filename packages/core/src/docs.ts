/** Where a built-in rule's README is published. The rule id is the folder name. */
export function docsUrl(ruleId: string): string {
  return `https://github.com/returnlint/returnlint/blob/main/packages/rule-${ruleId}/README.md`;
}
