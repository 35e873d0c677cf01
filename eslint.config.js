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
    // The answer path runs for every interaction. V8 gives each object literal with a getter or a
    // setter a map of its own in old space holding the accessor, and through its closure whatever
    // the closure reaches: young collections can no longer free it, so each request's objects
    // survive and are promoted (over HTTP: GC 3x, issue 23, commit f6fb673). A class's accessors,
    // on its prototype, are fine.
    files: [
      "src/bot/core/**",
      "src/bot/http/**",
      "src/answers/**",
      "src/cache/**",
      "src/format/**",
      "src/tokens/**",
      "src/github/**",
      "commands/**",
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "ObjectExpression > Property[kind=/^(get|set)$/]",
          message:
            "No getter or setter in an object literal on the answer path: V8 keeps what its closure reaches out of young collections. Use a plain field, a method or a class.",
        },
      ],
    },
  },
  {
    files: ["test/**"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
