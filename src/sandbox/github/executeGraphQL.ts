import {
  GraphQLError,
  execute,
  getOperationAST,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from "graphql";
import { GitHubFieldError, NotImplementedByStandInError, somethingWentWrong } from "./githubErrors.js";
import { NODE_LIMIT, queryCost, type QueryCost } from "./queryCost.js";
import { standInFieldResolver, type ResolverContext } from "./resolvers.js";
import type { GraphQLRequestBody } from "./transport.js";
import {
  toGitHubSyntaxError,
  toGitHubValidationError,
  toGitHubVariableError,
  type GitHubErrorEntry,
} from "./validationErrors.js";

/** A query that parsed and validated, with what it costs. */
export interface PreparedQuery {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  cost: QueryCost;
}

/** What GitHub answers to a query it refuses before running it (HTTP 200, no data). */
export interface RefusedQuery {
  errors: GitHubErrorEntry[];
}

/** Parsed and validated documents by query text: validating against GitHub's schema is not free. */
const checkedDocuments = new Map<string, DocumentNode | RefusedQuery>();
const CHECKED_DOCUMENTS_KEPT = 200;

function checkDocument(schema: GraphQLSchema, query: string): DocumentNode | RefusedQuery {
  const cached = checkedDocuments.get(query);
  if (cached) return cached;
  let checked: DocumentNode | RefusedQuery;
  try {
    const document = parse(query);
    const problems = validate(schema, document);
    checked =
      problems.length > 0
        ? { errors: problems.map((problem) => toGitHubValidationError(problem, document)) }
        : document;
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    checked = { errors: [toGitHubSyntaxError(error)] };
  }
  if (checkedDocuments.size >= CHECKED_DOCUMENTS_KEPT) {
    const oldest = checkedDocuments.keys().next().value;
    if (oldest !== undefined) checkedDocuments.delete(oldest);
  }
  checkedDocuments.set(query, checked);
  return checked;
}

/**
 * Parses and validates a query against GitHub's schema, and picks the operation. A query GitHub
 * would refuse gets GitHub's errors; a runnable one gets its cost.
 */
export function prepareQuery(schema: GraphQLSchema, body: GraphQLRequestBody): PreparedQuery | RefusedQuery {
  const document = checkDocument(schema, body.query);
  if ("errors" in document) return document;
  const operation = getOperationAST(document, body.operationName ?? undefined);
  if (!operation) {
    const message =
      body.operationName == null
        ? "An operation name is required"
        : `No operation named "${body.operationName}"`;
    return { errors: [{ message }] };
  }
  const cost = queryCost(document, operation, body.variables ?? {});
  if (cost.overNodeLimit) {
    // GitHub refuses the whole query before running it, HTTP 200, nothing charged. The wording is
    // the one client projects quote; unconfirmed whether `locations` and `path` come with it.
    const { connection, nodeCount } = cost.overNodeLimit;
    return {
      errors: [
        {
          type: "MAX_NODE_LIMIT_EXCEEDED",
          message: `By the time this query traverses to the ${connection} connection, it is requesting up to ${nodeCount.toLocaleString("en-US")} possible nodes which exceeds the maximum limit of ${NODE_LIMIT.toLocaleString("en-US")}.`,
        },
      ],
    };
  }
  return { document, operation, cost };
}

/** Runs a prepared query and shapes the answer as GitHub does: `{data, errors}` with GitHub's entries. */
export async function runQuery(
  schema: GraphQLSchema,
  prepared: PreparedQuery,
  body: GraphQLRequestBody,
  context: ResolverContext,
  requestId: string,
): Promise<Record<string, unknown>> {
  const result = await execute({
    schema,
    document: prepared.document,
    operationName: body.operationName ?? undefined,
    variableValues: body.variables ?? {},
    contextValue: context,
    fieldResolver: standInFieldResolver,
  });
  if (result.data === undefined) {
    // Nothing ran: the variables could not be coerced.
    return {
      errors: (result.errors ?? []).map((error) =>
        toGitHubVariableError(error, prepared.document, body.variables),
      ),
    };
  }
  if (!result.errors || result.errors.length === 0) return { data: result.data };
  // graphql-js lists errors in the order the resolvers failed; sort them by place in the query so
  // the same query always gets the same answer.
  const errors = [...result.errors].sort((a, b) => {
    const [left, right] = [a.locations?.[0], b.locations?.[0]];
    return (left?.line ?? 0) - (right?.line ?? 0) || (left?.column ?? 0) - (right?.column ?? 0);
  });
  return { data: result.data, errors: errors.map((error) => executionError(error, requestId)) };
}

function executionError(error: GraphQLError, requestId: string): GitHubErrorEntry {
  const original = error.originalError;
  const entry: GitHubErrorEntry = {};
  const known = original instanceof GitHubFieldError || original instanceof NotImplementedByStandInError;
  if (known) entry.type = original.type;
  if (error.path) entry.path = error.path;
  if (error.locations) entry.locations = error.locations.map(({ line, column }) => ({ line, column }));
  if (known) {
    entry.message = error.message;
  } else {
    // GitHub hides its own failures behind a generic message; the stand-in adds what went wrong.
    entry.message = somethingWentWrong(requestId);
    entry.extensions = { standIn: error.message };
  }
  return entry;
}
