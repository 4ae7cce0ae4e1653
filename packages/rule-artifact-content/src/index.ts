import { defineRule, docsUrl, isSuccessLike, MAX_ARTIFACT_PATHS, type ClaimedArtifact } from "@returnlint/core";

interface Options {
  minBytes: number;
  maxBytes: number;
  /** Artifact type → patterns, each of which some Markdown heading must match. */
  sections: Record<string, string[]>;
}

interface Named {
  readonly path: string;
  readonly type: string | undefined;
  readonly pointer: string;
}

/**
 * Artifact paths as the artifacts rule reads them (the return's claims), with the entry's type when
 * it has one: each path and type once (a file named a thousand times is read once), and the first
 * MAX_ARTIFACT_PATHS (the artifacts rule fails a return that names more).
 */
function namedArtifacts(artifacts: Iterable<ClaimedArtifact>): Named[] {
  const named: Named[] = [];
  const seen = new Set<string>();
  for (const { path, type, entry } of artifacts) {
    if (named.length === MAX_ARTIFACT_PATHS) break;
    const key = `${type ?? ""}\0${path}`;
    if (seen.has(key)) continue;
    seen.add(key);
    named.push({ path, type, pointer: entry });
  }
  return named;
}

const SHOWN_HEADINGS = 12;
const FENCE = /^\s{0,3}(```|~~~)/;
const ATX = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/;
const SETEXT = /^\s{0,3}(?:=+|-+)\s*$/;

/** The text of every Markdown heading (ATX `## Findings` and setext underlines), outside code fences. */
export function headingsOf(text: string): string[] {
  const headings: string[] = [];
  let fence: string | undefined;
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    const marker = FENCE.exec(line)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      else if (fence === marker) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const atx = ATX.exec(line)?.[1];
    if (atx !== undefined) headings.push(atx.trim());
    const previous = lines[index - 1];
    if (index > 0 && SETEXT.test(line) && previous !== undefined && previous.trim() !== "" && !ATX.test(previous)) headings.push(previous.trim());
  });
  return headings;
}

function shown(given: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
  return /[\u0000-\u001f\u007f]/.test(given) ? JSON.stringify(given) : given;
}

/** Issue 10: an artifact is more than a template: big enough, with the sections its type needs. */
export default defineRule<Options>(docsUrl)({
  id: "artifact-content",
  meta: {
    description: "Each artifact of a success return is more than a template: at least minBytes, with the Markdown sections its type requires.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        minBytes: { type: "integer", minimum: 0, description: "The smallest size, in bytes, an artifact may have." },
        maxBytes: {
          type: "integer",
          minimum: 1,
          description: "How much of each artifact is read to look for its sections; headings after this point are not seen.",
        },
        sections: {
          type: "object",
          additionalProperties: { type: "array", items: { type: "string" } },
          description:
            "Artifact type → regular expressions (case-insensitive), each of which some Markdown heading of an artifact of that type must match. A map given here replaces the default one; types not in it only need minBytes.",
        },
      },
      required: ["minBytes", "maxBytes", "sections"],
    },
    defaultOptions: {
      minBytes: 200,
      maxBytes: 1024 * 1024,
      sections: { report: ["findings"], plan: ["phases?"], summary: ["results?|summary"] },
    },
    messages: {
      skipped: { text: "Skipping artifact content validation (status={status})" },
      unreadable: {
        text: "Artifact content cannot be checked: {path}",
        detail: "Error: {reason}",
        recommendation: "Verify {agent} writes its artifacts as regular files inside the project",
        reask: "{path} cannot be checked ({reason}); write it as a regular file inside the project",
      },
      tooSmall: {
        text: "Artifact is too small to be more than a template: {path} ({size} bytes, minimum {minBytes})",
        detail: "Error: Subagent created the file but wrote almost nothing in it",
        recommendation: "Verify {agent} writes the artifact's content, not only its outline",
        reask: "{path} is {size} bytes, less than {minBytes}; write its content, not only its outline",
      },
      missingSections: {
        text: "Artifact {path} ({type}) is missing required sections: {missing}",
        detail: "Error: no heading{scope} matches {missing}\nFound headings: {headings}",
        recommendation: "Verify {agent} fills in every section a {type} needs: {missing}",
        reask: "{path} ({type}) has no heading matching {missing}; add those sections",
      },
      badPattern: {
        text: "Section pattern for {type} is not a regular expression: {pattern}",
        detail: "Error: {reason}",
        recommendation: "Fix the artifact-content rule's sections option in the returnlint config",
      },
      hasContent: { text: "Artifact has content: {path} ({size} bytes)" },
    },
  },
  check(context) {
    const { files, options, claims } = context;
    const { status } = claims;
    if (claims.artifactCount === 0 && claims.artifactList === undefined) return;
    if (claims.counted === undefined && status === null) return;
    // Under a contract its success status says whether the claims count; in a format, the status vocabulary.
    if (!(claims.counted ?? isSuccessLike(status ?? ""))) {
      context.info({ messageId: "skipped", data: { status: status ?? "" } });
      return;
    }

    const patterns = new Map<string, { source: string; pattern: RegExp }[]>();
    for (const [type, sources] of Object.entries(options.sections)) {
      const compiled: { source: string; pattern: RegExp }[] = [];
      for (const source of sources) {
        try {
          compiled.push({ source, pattern: new RegExp(source, "iu") });
        } catch (error) {
          context.report({ messageId: "badPattern", data: { type, pattern: source, reason: (error as Error).message } });
        }
      }
      patterns.set(type, compiled);
    }

    for (const { path, type, pointer } of namedArtifacts(claims.artifacts)) {
      const checked = files.check(path);
      const data = { path: shown(path) };
      if (!checked.ok) {
        context.report({ messageId: "unreadable", data: { ...data, reason: `the file cannot be inspected (${checked.problem})` }, pointer });
        continue;
      }
      if (checked.size < options.minBytes) {
        context.report({ messageId: "tooSmall", data: { ...data, size: checked.size, minBytes: options.minBytes }, pointer });
        continue;
      }
      const required = type === undefined ? [] : (patterns.get(type) ?? []);
      if (required.length > 0) {
        // A second name may be a file outside the project: core's view never reads one (SECURITY.md, "Hard links").
        const links = checked.links ?? 1;
        if (links > 1) {
          const reason = `it has ${String(links)} hard links, so it may also be a file outside the project; returnlint does not read it`;
          context.report({ messageId: "unreadable", data: { ...data, reason }, pointer });
          continue;
        }
        const text = files.read(path, options.maxBytes);
        if (text === null) {
          context.report({ messageId: "unreadable", data: { ...data, reason: "the file could not be read" }, pointer });
          continue;
        }
        const headings = headingsOf(text);
        const missing = required.filter(({ pattern }) => !headings.some((heading) => pattern.test(heading))).map(({ source }) => `/${source}/`);
        if (missing.length > 0) {
          const scope = checked.size > options.maxBytes ? ` in the first ${String(options.maxBytes)} bytes` : "";
          const list = headings.length === 0 ? "(none)" : headings.slice(0, SHOWN_HEADINGS).map((heading) => JSON.stringify(heading)).join(", ") + (headings.length > SHOWN_HEADINGS ? ", …" : "");
          context.report({ messageId: "missingSections", data: { ...data, type: type ?? "", missing: missing.join(", "), scope, headings: list }, pointer });
          continue;
        }
      }
      context.pass({ messageId: "hasContent", data: { ...data, size: checked.size } });
    }
  },
});
