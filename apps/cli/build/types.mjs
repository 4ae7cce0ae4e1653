// The published type declarations, self-contained: `returnlint` installs with no dependencies
// (everything is bundled), so its types cannot point at @returnlint/api or @returnlint/core either.
// tsc writes dist/types/index.d.ts, which re-exports from both; their own declarations are copied
// beside it (dist/types/api/, dist/types/core/) and every import of them made relative. The two
// ajv types core's declarations name are declared in dist/types/ajv.d.ts, so that ajv is not needed
// to compile against returnlint either.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGES = { "@returnlint/api": "api", "@returnlint/core": "core" };
const AJV_MODULES = ["ajv", "ajv/dist/2020.js"];

/** What of ajv's types core's declarations use: an error's description and a compiled schema. */
const AJV_TYPES = `// The parts of ajv's types that returnlint's declarations name, so that compiling against returnlint needs no ajv.
export interface ErrorObject {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, any>;
  propertyName?: string;
  message?: string;
  schema?: unknown;
  parentSchema?: object;
  data?: unknown;
}
export interface ValidateFunction<T = unknown> {
  (data: any): data is T;
  errors?: null | ErrorObject[];
  schema?: unknown;
}
`;

/** Every .d.ts under `folder`, as paths relative to it. */
function declarations(folder, under = "") {
  return readdirSync(path.join(folder, under), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(under, entry.name);
    if (entry.isDirectory()) return declarations(folder, relative);
    return entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

/** A module specifier relative to `from` (a file under dist/types/), as a declaration writes it. */
function relativeSpecifier(from, target) {
  const relative = path.relative(path.dirname(from), target).split(path.sep).join("/");
  return relative.startsWith(".") ? relative : `./${relative}`;
}

/** Rewrites the package and ajv specifiers of the declaration at `file` (under `types`); throws on any other bare one. */
function rewrite(types, file) {
  const text = readFileSync(file, "utf8");
  const rewritten = text.replace(/(from |import\()"([^"]+)"/g, (whole, keyword, specifier) => {
    if (specifier.startsWith(".") || specifier.startsWith("node:")) return whole;
    const folder = PACKAGES[specifier];
    if (folder !== undefined) return `${keyword}"${relativeSpecifier(file, path.join(types, folder, "index.js"))}"`;
    if (AJV_MODULES.includes(specifier)) return `${keyword}"${relativeSpecifier(file, path.join(types, "ajv.js"))}"`;
    throw new Error(`${file} imports "${specifier}": the published types may name only returnlint's own declarations and node:*`);
  });
  if (rewritten !== text) writeFileSync(file, rewritten);
}

/** Makes dist/types/ self-contained: copies api's and core's declarations in, and points every import at them. */
export function bundleTypes(cli) {
  const types = fileURLToPath(new URL("dist/types/", cli));
  const written = ["index.d.ts"].map((name) => path.join(types, name));
  for (const [name, folder] of Object.entries(PACKAGES)) {
    const source = path.dirname(fileURLToPath(import.meta.resolve(name)));
    for (const relative of declarations(source)) {
      const target = path.join(types, folder, relative);
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(path.join(source, relative), target);
      written.push(target);
    }
  }
  writeFileSync(path.join(types, "ajv.d.ts"), AJV_TYPES);
  for (const file of written) rewrite(types, file);
}
