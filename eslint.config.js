import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/.generated/**", "**/node_modules/**", "**/.turbo/**", "bench/.work/**", "**/*.d.ts", "**/type-fixtures/**"] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      // One program for the whole repository (the root tsconfig.json includes every package's sources
      // and tests): a project per package would type every package's dependencies again for each.
      parserOptions: { project: ["./tsconfig.json"], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
    },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { URL: "readonly", process: "readonly", console: "readonly" },
    },
  },
  {
    files: ["**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: "commonjs",
      globals: { require: "readonly", module: "writable", __dirname: "readonly", __filename: "readonly", process: "readonly" },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, "@typescript-eslint/no-require-imports": "off" },
  },
  {
    files: ["**/*.test.ts"],
    rules: { "@typescript-eslint/no-unused-vars": ["error", { varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }] },
  },
);
