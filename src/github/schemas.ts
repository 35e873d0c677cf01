import { z } from "zod";
import { blameRangesSchema } from "./blameRangesSchema.js";

/**
 * zod schemas of everything GitHub answers (STYLE.md habit 3: parse, don't check). A body that does
 * not fit becomes an `UpstreamError` ("unreadable") at the edge, never an `undefined` deeper in.
 * The shapes follow GitHub's schema, nulls included: a field GitHub may null (because of an error
 * on it, or by nature) is nullable here.
 */

const int = z.number().int();

// ---------------------------------------------------------------------------------------------
// The GraphQL envelope

/** One entry of a GraphQL `errors` list, with GitHub's extra `type` and `code`. */
export const graphqlErrorSchema = z.object({
  message: z.string(),
  /** GitHub's classification: `NOT_FOUND`, `FORBIDDEN`, `RATE_LIMIT`, `EXCESSIVE_PAGINATION`... */
  type: z.string().optional(),
  /** `graphql_rate_limit` on a primary limit. */
  code: z.string().optional(),
  path: z.array(z.union([z.string(), z.number()])).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type GraphQLErrorItem = z.infer<typeof graphqlErrorSchema>;

/** `{data, errors}`; `data` is checked per document once the errors are understood. */
export const graphqlEnvelopeSchema = z.object({
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  errors: z.array(graphqlErrorSchema).optional(),
});
export type GraphQLEnvelope = z.infer<typeof graphqlEnvelopeSchema>;

/** REST error bodies (`{"message", "documentation_url", "status"}`); every part optional. */
export const restErrorBodySchema = z.object({
  message: z.string().optional(),
  documentation_url: z.string().optional(),
});

// ---------------------------------------------------------------------------------------------
// Pieces shared by documents

/** Other Git object types, for unions discriminated on `__typename`. */
const otherObject = <const T extends readonly [string, ...string[]]>(types: T) =>
  z.object({ __typename: z.enum(types) });

/**
 * `Repository.visibility`. A value GitHub may add one day reads as `PRIVATE`: an answer whose
 * audience RepoScout cannot tell is shown only to the asker, never to a channel (fail closed).
 */
export const visibilitySchema = z.enum(["PUBLIC", "PRIVATE", "INTERNAL"]).catch("PRIVATE");

/** The repository fields an answer's header is made of (toRepositoryHeader), as every document asks them. */
export const repositoryHeaderFields = {
  nameWithOwner: z.string(),
  url: z.string(),
  isPrivate: z.boolean(),
  visibility: visibilitySchema,
  defaultBranchRef: z.object({ name: z.string() }).nullable(),
};

const commitPin = {
  oid: z.string().min(1),
  url: z.string(),
  committedDate: z.string(),
};

const blobSchema = z.object({
  __typename: z.literal("Blob"),
  oid: z.string(),
  /** Null for a binary blob. */
  text: z.string().nullable(),
  /** Null when GitHub cannot tell. */
  isBinary: z.boolean().nullable(),
  byteSize: int,
  isTruncated: z.boolean(),
});
export type BlobData = z.infer<typeof blobSchema>;

// ---------------------------------------------------------------------------------------------
// Per document

export const viewerDataSchema = z.object({
  viewer: z.object({ login: z.string().min(1) }),
  /** Null on GitHub Enterprise Server with rate limits off. */
  rateLimit: z
    .object({ limit: int, remaining: int, used: int, resetAt: z.string(), cost: int })
    .nullable()
    .optional(),
});

export const ownerRepositoriesDataSchema = z.object({
  repositoryOwner: z
    .object({
      __typename: z.enum(["User", "Organization"]),
      login: z.string(),
      repositories: z.object({
        totalCount: int,
        pageInfo: z.object({
          endCursor: z.string().nullable(),
          hasNextPage: z.boolean(),
          hasPreviousPage: z.boolean(),
          startCursor: z.string().nullable(),
        }),
        // `nodes: [Repository]`: an item can be null when GitHub could not resolve it.
        nodes: z
          .array(
            z
              .object({
                name: z.string(),
                nameWithOwner: z.string(),
                url: z.string(),
                pushedAt: z.string().nullable(),
                isPrivate: z.boolean(),
                visibility: visibilitySchema,
                description: z.string().nullable(),
              })
              .nullable(),
          )
          .nullable(),
      }),
    })
    .nullable(),
});

export const repositoryInfoDataSchema = z.object({
  repository: z
    .object({
      nameWithOwner: z.string(),
      url: z.string(),
      isPrivate: z.boolean(),
      visibility: visibilitySchema,
      isEmpty: z.boolean(),
      defaultBranchRef: z
        .object({ name: z.string(), target: z.object({ oid: z.string() }).nullable() })
        .nullable(),
    })
    .nullable(),
});

export const repositoryAccessDataSchema = z.object({
  repository: z
    .object({ nameWithOwner: z.string(), isPrivate: z.boolean(), visibility: visibilitySchema })
    .nullable(),
});

export const refCommitDataSchema = z.object({
  repository: z
    .object({
      nameWithOwner: z.string(),
      isPrivate: z.boolean(),
      visibility: visibilitySchema,
      defaultBranchRef: z.object({ name: z.string() }).nullable(),
      object: z
        .lazy(() => throughTags(z.object({ __typename: z.literal("Commit"), oid: z.string() })))
        .nullable(),
    })
    .nullable(),
});

/**
 * What `object(expression)` answers in the Blame and Contents documents: the commit selection, a
 * tree or blob, or an annotated tag whose `target` is asked again (one level less each time). The
 * innermost tag of the documents has no `target` asked, so `target` is absent there: the chain was
 * deeper than the documents follow.
 */
export type ThroughTags<C> =
  C | { __typename: "Blob" | "Tree" } | { __typename: "Tag"; target?: ThroughTags<C> | undefined };

/** {@link ThroughTags} of a commit selection (`__typename` "Commit"). */
export function throughTags<C extends { __typename: "Commit" }>(
  commit: z.ZodType<C>,
): z.ZodType<ThroughTags<C>> {
  const schema: z.ZodType<ThroughTags<C>> = z.union([
    commit,
    z.object({
      __typename: z.literal("Tag"),
      // `target` is GitObject! in GitHub's schema: present whenever it was asked.
      target: z.lazy(() => schema).optional(),
    }),
    otherObject(["Blob", "Tree"]),
  ]);
  return schema;
}

const blameCommitSchema = z.object({
  __typename: z.literal("Commit"),
  ...commitPin,
  blame: z.object({ ranges: blameRangesSchema }),
  file: z
    .object({
      path: z.string().nullable(),
      object: z
        .discriminatedUnion("__typename", [blobSchema, otherObject(["Commit", "Tree", "Tag"])])
        .nullable(),
    })
    .nullable(),
});

/** A tree entry's kind: `commit` is a submodule's gitlink. */
const treeEntryType = z.enum(["blob", "tree", "commit"]);

/**
 * `Commit.file(path) { type mode }`: null (with a NOT_FOUND error) when nothing is at the path; the
 * mode tells a symbolic link (0o120000) from a file.
 */
const entryTypeAndModeSchema = z.object({ type: treeEntryType, mode: int }).nullable();

export const blameDataSchema = z.object({
  repository: z
    .object({
      ...repositoryHeaderFields,
      // `blame` is non-null in the schema (and so is a tag's `target`): when it fails, the null
      // reaches `object`.
      object: throughTags(blameCommitSchema).nullable(),
      // The same commit asked for the type of the entry at the path alone, so that it survives a
      // failed `blame` (see BLAME_QUERY).
      entry: throughTags(
        z.object({ __typename: z.literal("Commit"), file: entryTypeAndModeSchema }),
      ).nullable(),
    })
    .nullable(),
});
export type BlameData = z.infer<typeof blameDataSchema>;

const treeEntrySchema = z.object({
  name: z.string(),
  path: z.string().nullable(),
  type: treeEntryType,
  mode: int,
  size: int,
  object: z
    .discriminatedUnion("__typename", [
      z.object({ __typename: z.literal("Blob"), byteSize: int, isBinary: z.boolean().nullable() }),
      otherObject(["Commit", "Tree", "Tag"]),
    ])
    .nullable(),
});

export const contentsDataSchema = z.object({
  repository: z
    .object({
      ...repositoryHeaderFields,
      commit: throughTags(
        z.object({
          __typename: z.literal("Commit"),
          ...commitPin,
          // Absent for the root (`@include(if: $hasPath)`), null when nothing is at the path.
          file: entryTypeAndModeSchema.optional(),
        }),
      ).nullable(),
      object: z
        .discriminatedUnion("__typename", [
          z.object({
            __typename: z.literal("Tree"),
            oid: z.string(),
            entries: z.array(treeEntrySchema).nullable(),
          }),
          blobSchema,
          otherObject(["Commit", "Tag"]),
        ])
        .nullable(),
    })
    .nullable(),
});

// ---------------------------------------------------------------------------------------------
// REST contributors

/** `anon=1` entries: a git identity that maps to no account. */
export const anonymousContributorSchema = z.object({
  type: z.literal("Anonymous"),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  contributions: int,
});

/** An account (`type` "User", "Bot", "Organization"...). */
export const accountContributorSchema = z.object({
  login: z.string().min(1),
  html_url: z.string(),
  type: z.string(),
  contributions: int,
});

export const contributorsBodySchema = z.array(
  z.union([anonymousContributorSchema, accountContributorSchema]),
);
export type ContributorsBody = z.infer<typeof contributorsBodySchema>;
