// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** See the block that applies it: no getter or setter in an object literal on the answer path. */
const NO_ACCESSOR_IN_LITERAL = {
  selector: "ObjectExpression > Property[kind=/^(get|set)$/]",
  message:
    "No getter or setter in an object literal on the answer path: V8 keeps what its closure reaches out of young collections. Use a plain field, a method or a class.",
};

/** See the block that applies it: no object literal that starts with a spread and goes on. */
const NO_SPREAD_FIRST_IN_LITERAL = {
  selector: ":function ObjectExpression[properties.length>1] > SpreadElement:first-child",
  message:
    "No object literal that starts with a spread and goes on on the answer path: in Node 20's V8 it survives young collections with what it reaches. Write it out, or use withFields (src/withFields.ts).",
};

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
    rules: { "no-restricted-syntax": ["error", NO_ACCESSOR_IN_LITERAL] },
  },
  {
    // In Node 20's V8 an object literal that starts with a spread and goes on with more properties
    // ({ ...key, fingerprint }), or a spread copy given a property afterwards, survives young
    // collections with everything it reaches: a cached /blame promoted 190 KB at every scavenge,
    // 21 KB without (issue 23, commit 709f1b5; a plain-node reduction kept 0.85-1.7 MB a scavenge
    // and ran 2.7x slower). Where interactions go (the bot, answers, cache, formatting, tokens,
    // commands): write the object out, or use withFields (src/withFields.ts). A spread last, or
    // alone, is fine; so is one made once, at start (outside any function). src/github is left out:
    // its objects are made once per call to GitHub, beside a round trip over the network.
    files: ["src/bot/**", "src/answers/**", "src/cache/**", "src/format/**", "src/tokens/**", "commands/**"],
    // The rule's list replaces the one above where both apply: the accessor restriction again.
    rules: { "no-restricted-syntax": ["error", NO_ACCESSOR_IN_LITERAL, NO_SPREAD_FIRST_IN_LITERAL] },
  },
  {
    // The same shapes in the local Discord, which a load run drives thousands of times a second in
    // the load driver's process: interaction payloads and states, embed fields and components made
    // with a leading spread each had a map of their own (a heap snapshot mid-run), so no inline
    // cache held across them and each survived its young collections. Built with `merged`
    // (src/sandbox/discord/json.ts), the driver kept 18% less heap and spent 10% less time in GC.
    files: ["src/sandbox/discord/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: NO_SPREAD_FIRST_IN_LITERAL.selector,
          message:
            "No object literal that starts with a spread and goes on in the local Discord: in Node 20's V8 each such object gets a map of its own. Write it out, or use merged (src/sandbox/discord/json.ts).",
        },
      ],
    },
  },
  {
    // Modules every process would load at start for a use most never have: pino-pretty serves a
    // terminal (a deployment writes JSON), resvg draws the /owners chart. Loaded at start, they
    // cost 68 and 41 ms and 10 and 7 MB of resident memory alone (commit 17d002e): they load at
    // first use, through createRequire (src/logger.ts, src/owners/renderChart.ts).
    files: ["src/**", "commands/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        ...["pino-pretty", "@resvg/resvg-js"].map((name) => ({
          name,
          allowTypeImports: true,
          message: `${name} loads at its first use, not at start: require it there (see src/logger.ts, src/owners/renderChart.ts).`,
        })),
      ],
    },
  },
  {
    files: ["test/**"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
