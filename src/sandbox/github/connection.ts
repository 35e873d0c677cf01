import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from "graphql";
import { GitHubFieldError } from "./githubErrors.js";

/** The paging arguments of a GitHub connection field. */
export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** A page of a connection, shaped for the schema's `XConnection` / `XEdge` / `PageInfo` types. */
export interface ConnectionPage<T> {
  totalCount: number;
  nodes: T[];
  edges: Array<{ cursor: string; node: T }>;
  pageInfo: {
    startCursor: string | null;
    endCursor: string | null;
    hasNextPage: boolean;
    hasPreviousPage: boolean;
  };
}

const MAX_PAGE = 100;

/** Opaque cursor of the item at `index` (GitHub's cursors are opaque base64 too). */
export function encodeCursor(index: number): string {
  return Buffer.from(`cursor:v2:${index}`, "utf8").toString("base64");
}

function decodeCursor(cursor: string): number {
  const match = /^cursor:v2:(\d+)$/.exec(Buffer.from(cursor, "base64").toString("utf8"));
  if (!match) {
    throw new GitHubFieldError(
      "INVALID_CURSOR_ARGUMENTS",
      `\`${cursor}\` does not appear to be a valid cursor.`,
    );
  }
  return Number(match[1]);
}

/** Whether the field's selection (through fragments) asks for any of `names`. */
function selects(info: GraphQLResolveInfo, names: readonly string[]): boolean {
  const seen = new Set<string>();
  const visit = (selectionSet: SelectionSetNode | undefined): boolean => {
    for (const selection of selectionSet?.selections ?? []) {
      if (selection.kind === Kind.FIELD && names.includes(selection.name.value)) return true;
      if (selection.kind === Kind.INLINE_FRAGMENT && visit(selection.selectionSet)) return true;
      if (selection.kind === Kind.FRAGMENT_SPREAD && !seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        if (visit(info.fragments[selection.name.value]?.selectionSet)) return true;
      }
    }
    return false;
  };
  return info.fieldNodes.some((node) => visit(node.selectionSet));
}

/**
 * Pages `items` as GitHub does: `first` or `last` (at most 100) is required when nodes or edges are
 * selected (counting alone needs neither); cursors delimit the window. Errors carry GitHub's types.
 */
export function paginate<T>(
  items: readonly T[],
  args: ConnectionArgs,
  info: GraphQLResolveInfo,
): ConnectionPage<T> {
  const connection = info.fieldName;
  const first = args.first ?? null;
  const last = args.last ?? null;
  for (const [name, value] of [
    ["first", first],
    ["last", last],
  ] as const) {
    if (value !== null && value > MAX_PAGE) {
      throw new GitHubFieldError(
        "EXCESSIVE_PAGINATION",
        `Requesting ${value} records on the \`${connection}\` connection exceeds the \`${name}\` limit of ${MAX_PAGE} records.`,
      );
    }
    // Unconfirmed: GitHub's wording for a negative page size was not captured.
    if (value !== null && value < 0) {
      throw new GitHubFieldError(
        "INVALID_ARGUMENTS",
        `\`${name}\` on \`${connection}\` cannot be less than 0.`,
      );
    }
  }
  if (first === null && last === null && selects(info, ["nodes", "edges"])) {
    throw new GitHubFieldError(
      "MISSING_PAGINATION_BOUNDARIES",
      `You must provide a \`first\` or \`last\` value to properly paginate the \`${connection}\` connection.`,
    );
  }
  let start = 0;
  let end = items.length;
  if (args.after != null) start = Math.min(items.length, decodeCursor(args.after) + 1);
  if (args.before != null) end = Math.max(start, Math.min(end, decodeCursor(args.before)));
  if (first !== null) end = Math.min(end, start + first);
  if (last !== null) start = Math.max(start, end - last);
  const edges = items
    .slice(start, end)
    .map((node, offset) => ({ cursor: encodeCursor(start + offset), node }));
  return {
    totalCount: items.length,
    nodes: edges.map((edge) => edge.node),
    edges,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
    },
  };
}
