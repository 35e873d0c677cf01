// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", "data/", "coverage/", ".tmp/", "dist/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    // The sandbox's terminal chat, the stand-in's CLI, the deploy script and the benchmark
    // talk to a person on stdout by design.
    files: ["src/sandbox/**", "deploy-commands.ts", "bench/**", "src/index.ts", "bin/**"],
    rules: { "no-console": "off" },
  },
  {
    // The launcher is plain JavaScript run by node: Node's globals.
    files: ["bin/**"],
    languageOptions: { globals: { URL: "readonly", console: "readonly", process: "readonly" } },
  },
  {
    files: ["test/**"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
