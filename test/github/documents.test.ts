import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, parse, validate, type GraphQLSchema } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { BLAME_QUERY, CONTENTS_QUERY, DOCUMENTS, TAG_DEPTH } from "../../src/github/documents.js";

// GitHub's published schema. The SDL defines two fields of EnterpriseOwnerInfo twice, hence
// assumeValidSDL; the package's own validate() uses the older schema.json, so it is not used.
let schema: GraphQLSchema;

/**
 * `import.meta.resolve("@octokit/graphql-schema")`. Vitest 3's module runner does not provide
 * import.meta.resolve, so when it is missing the same call runs in a plain Node process.
 */
function resolvePackage(specifier: string): string {
  if (typeof import.meta.resolve === "function") return import.meta.resolve(specifier);
  return execFileSync(
    process.execPath,
    ["--input-type=module", "-e", `process.stdout.write(import.meta.resolve(${JSON.stringify(specifier)}))`],
    { cwd: fileURLToPath(new URL("../..", import.meta.url)), encoding: "utf8" },
  );
}

beforeAll(() => {
  const url = new URL("./schema.graphql", resolvePackage("@octokit/graphql-schema"));
  schema = buildSchema(readFileSync(url, "utf8"), { assumeValidSDL: true });
});

function problems(document: string): string[] {
  return validate(schema, parse(document)).map((error) => error.message);
}

describe("GraphQL documents against GitHub's schema", () => {
  it.each(Object.entries(DOCUMENTS))("%s validates", (name, document) => {
    expect(problems(document)).toEqual([]);
    // A named operation whose name is the key the client sends as operationName.
    const definition = parse(document).definitions[0];
    expect(definition?.kind === "OperationDefinition" ? definition.name?.value : undefined).toBe(name);
  });

  it("rejects a misspelled field, so the check above can fail", () => {
    const misspelled = BLAME_QUERY.replace("messageHeadline", "messageHedline");
    expect(misspelled).not.toBe(BLAME_QUERY);
    expect(problems(misspelled)).toEqual([expect.stringContaining("messageHedline")]);
  });

  it("rejects a wrong argument type", () => {
    const wrong = DOCUMENTS.OwnerRepositories.replace("$first: Int!", "$first: String!");
    expect(problems(wrong).length).toBeGreaterThan(0);
  });

  it.each([
    ["Blame", ["...BlameAtCommit", "...EntryAtCommit"]],
    ["Contents", ["...PinnedCommit"]],
    ["RefCommit", ["...CommitId"]],
    ["Commit", ["...CommitDetails"]],
  ] as const)(
    "%s follows annotated tags exactly TAG_DEPTH deep, asking for the commit at each level",
    (name, fragments) => {
      const document = DOCUMENTS[name];
      // One chain of tags per field that asks a ref for a commit (Blame: `object` and `entry`).
      expect(document.match(/\.\.\. on Tag \{ target \{/g)).toHaveLength(TAG_DEPTH * fragments.length);
      for (const fragment of fragments) expect(document.split(fragment)).toHaveLength(TAG_DEPTH + 2);
    },
  );

  it("Blame asks no author email: GitHub would write it in every range, and a blame never shows it (issue 23)", () => {
    const author = /author \{([^}]*)\}/.exec(BLAME_QUERY)?.[1] ?? "";
    expect(author).toMatch(/\bname\b/);
    expect(author).not.toMatch(/\bemail\b/);
  });

  it("Blame asks the type of the entry at the path outside the selection a failed blame nulls", () => {
    const operation = parse(BLAME_QUERY).definitions[0];
    const repository =
      operation?.kind === "OperationDefinition" ? operation.selectionSet.selections[0] : undefined;
    const fields =
      repository?.kind === "Field"
        ? (repository.selectionSet?.selections ?? []).flatMap((selection) =>
            selection.kind === "Field"
              ? [`${selection.alias?.value ?? selection.name.value}:${selection.name.value}`]
              : [],
          )
        : [];
    expect(fields).toEqual(expect.arrayContaining(["object:object", "entry:object"]));
    expect(BLAME_QUERY).toMatch(
      /fragment EntryAtCommit on Commit \{ file\(path: \$path\) \{ type mode \} \}/,
    );
  });

  it("Contents asks the commit's entry at the path only below the root", () => {
    expect(CONTENTS_QUERY).toContain("$path: String!, $hasPath: Boolean!");
    expect(CONTENTS_QUERY).toContain("file(path: $path) @include(if: $hasPath) { type mode }");
  });

  it("keeps user input out of the query text: every document declares variables for it", () => {
    for (const document of Object.values(DOCUMENTS)) {
      // No string literal anywhere in a document: values come only from variables.
      expect(document).not.toMatch(/"/);
    }
  });
});
