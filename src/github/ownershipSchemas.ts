/**
 * zod schemas of the History, OwnersTree and OwnersBlame answers (ownershipDocuments.ts), beside
 * schemas.ts's: the shapes follow GitHub's schema, nulls included.
 */
import { z } from "zod";
import { repositoryHeaderFields, throughTags, visibilitySchema } from "./schemas.js";
import { BLAME_BATCH } from "./ownershipDocuments.js";

const int = z.number().int();

const authorSchema = z
  .object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    user: z.object({ login: z.string() }).nullable(),
  })
  .nullable();

const historyCommitSchema = z.object({
  __typename: z.literal("Commit"),
  oid: z.string().min(1),
  url: z.string(),
  committedDate: z.string(),
  history: z.object({
    totalCount: int,
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
    nodes: z.array(
      z.object({
        oid: z.string(),
        abbreviatedOid: z.string(),
        messageHeadline: z.string(),
        url: z.string(),
        committedDate: z.string(),
        authoredDate: z.string(),
        additions: int,
        deletions: int,
        author: authorSchema,
      }),
    ),
  }),
});

export const historyDataSchema = z.object({
  repository: z
    .object({ ...repositoryHeaderFields, object: throughTags(historyCommitSchema).nullable() })
    .nullable(),
});

/** An entry of a listed tree; `object` holds the entries one level down while the document asks. */
interface TreeEntryData {
  name: string;
  path: string | null;
  type: "blob" | "tree" | "commit";
  size: number;
  object:
    | { __typename: "Blob"; isBinary: boolean | null }
    | { __typename: "Tree"; entries?: TreeEntryData[] | null | undefined }
    | { __typename: "Commit" | "Tag" }
    | null;
}

const treeEntrySchema: z.ZodType<TreeEntryData> = z.lazy(() =>
  z.object({
    name: z.string(),
    path: z.string().nullable(),
    type: z.enum(["blob", "tree", "commit"]),
    size: int,
    object: z
      .union([
        z.object({ __typename: z.literal("Blob"), isBinary: z.boolean().nullable() }),
        z.object({ __typename: z.literal("Tree"), entries: z.array(treeEntrySchema).nullable().optional() }),
        z.object({ __typename: z.enum(["Commit", "Tag"]) }),
      ])
      .nullable(),
  }),
);
export type { TreeEntryData };

const codeownersBlobSchema = z
  .union([
    z.object({
      __typename: z.literal("Blob"),
      text: z.string().nullable(),
      byteSize: int,
      isTruncated: z.boolean(),
    }),
    z.object({ __typename: z.enum(["Commit", "Tree", "Tag"]) }),
  ])
  .nullable();

const ownersCommitSchema = z.object({
  __typename: z.literal("Commit"),
  oid: z.string().min(1),
  url: z.string(),
  committedDate: z.string(),
  // Absent for the root (`@include(if: $hasPath)`), null (with NOT_FOUND) when nothing is there.
  file: z
    .object({ type: z.enum(["blob", "tree", "commit"]) })
    .nullable()
    .optional(),
  history: z.object({
    totalCount: int,
    nodes: z.array(z.object({ oid: z.string(), authoredDate: z.string(), author: authorSchema })),
  }),
});

export const ownersTreeDataSchema = z.object({
  repository: z
    .object({
      ...repositoryHeaderFields,
      commit: throughTags(ownersCommitSchema).nullable(),
      object: z
        .union([
          z.object({ __typename: z.literal("Blob"), byteSize: int, isBinary: z.boolean().nullable() }),
          z.object({ __typename: z.literal("Tree"), entries: z.array(treeEntrySchema).nullable() }),
          z.object({ __typename: z.enum(["Commit", "Tag"]) }),
        ])
        .nullable(),
      codeowners1: codeownersBlobSchema,
      codeowners2: codeownersBlobSchema,
      codeowners3: codeownersBlobSchema,
    })
    .nullable(),
});

/** One alias of the OwnersBlame document. */
export const blameAliasSchema = z
  .object({
    blame: z.object({
      ranges: z.array(
        z.object({
          startingLine: int,
          endingLine: int,
          commit: z.object({ oid: z.string(), authoredDate: z.string(), author: authorSchema }),
        }),
      ),
    }),
  })
  // Absent when its `@include` was false; null when its blame failed.
  .nullable()
  .optional();

export const ownersBlameDataSchema = z.object({
  repository: z
    .object({
      nameWithOwner: z.string(),
      isPrivate: z.boolean(),
      visibility: visibilitySchema,
      ...Object.fromEntries(
        Array.from({ length: BLAME_BATCH }, (_, index) => [`f${index}`, blameAliasSchema]),
      ),
    })
    .nullable(),
});
