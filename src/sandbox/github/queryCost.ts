import {
  Kind,
  type DocumentNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";

/** GitHub's rate-limit cost of a query and the number of nodes it may return. */
export interface QueryCost {
  cost: number;
  nodeCount: number;
  /** The first connection at which the running node count passed GitHub's limit, if any. */
  overNodeLimit?: { connection: string; nodeCount: number };
}

/** GitHub: "Individual calls cannot request more than 500,000 total nodes." */
export const NODE_LIMIT = 500_000;

function intValue(node: ValueNode | undefined, variables: Record<string, unknown>): number | null {
  if (!node) return null;
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.VARIABLE) {
    const value = variables[node.name.value];
    return typeof value === "number" ? value : null;
  }
  return null;
}

/**
 * GitHub's documented cost: every connection (a field with `first` or `last`) needs one request per
 * parent item, assuming every page is full; the sum divided by 100 and rounded is the cost, at
 * least 1. The node count is the sum of the page sizes times their parents' sizes.
 */
export function queryCost(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): QueryCost {
  let requests = 0;
  let nodeCount = 0;
  let overNodeLimit: QueryCost["overNodeLimit"];
  const fragments = new Map(
    document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition] as const] : [],
    ),
  );
  const walk = (selectionSet: SelectionSetNode | undefined, multiplier: number, depth: number): void => {
    if (!selectionSet || depth > 50) return;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, multiplier, depth + 1);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        walk(fragments.get(selection.name.value)?.selectionSet, multiplier, depth + 1);
        continue;
      }
      const argument = (name: string): ValueNode | undefined =>
        selection.arguments?.find((candidate) => candidate.name.value === name)?.value;
      const size = intValue(argument("first"), variables) ?? intValue(argument("last"), variables);
      if (size !== null) {
        requests += multiplier;
        nodeCount += multiplier * size;
        if (overNodeLimit === undefined && nodeCount > NODE_LIMIT) {
          overNodeLimit = { connection: selection.name.value, nodeCount };
        }
        walk(selection.selectionSet, multiplier * Math.max(size, 1), depth + 1);
      } else {
        walk(selection.selectionSet, multiplier, depth + 1);
      }
    }
  };
  walk(operation.selectionSet, 1, 0);
  return {
    cost: Math.max(1, Math.round(requests / 100)),
    nodeCount,
    ...(overNodeLimit ? { overNodeLimit } : {}),
  };
}
