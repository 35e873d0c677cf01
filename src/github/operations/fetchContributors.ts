import type { ConditionalEntry } from "../conditionalStore.js";
import { EmptyRepositoryError, UpstreamError } from "../errors.js";
import { pageOfLink, parseLinkHeader } from "../linkHeader.js";
import { contributorsBodySchema, type ContributorsBody } from "../schemas.js";
import { contextOf } from "../transport/failureContext.js";
import { httpFailure, parseJsonBody } from "../transport/httpFailure.js";
import type { Contributor, ContributorsPage, RepoRef } from "../types.js";
import type { Credentials, OperationDeps } from "./operationDeps.js";

/** GitHub's default and maximum `per_page`. */
export const DEFAULT_CONTRIBUTORS_PER_PAGE = 30;
export const MAX_CONTRIBUTORS_PER_PAGE = 100;

/**
 * One page of a repository's contributors, anonymous ones included (REST
 * `GET /repos/{owner}/{repo}/contributors?page&per_page&anon=1`).
 *
 * Conditional: the answer's ETag is kept in the conditional store under a key made of the token's
 * fingerprint and the URL; the next identical request sends `If-None-Match`, and a 304 (free of
 * rate-limit points) reuses the stored body and Link header. A store that fails only costs the
 * saving: it is logged and the request goes out unconditionally.
 *
 * @throws RangeError when `page` is not an integer >= 1 or `perPage` not from 1 to 100.
 */
export async function fetchContributors(
  deps: OperationDeps,
  credentials: Credentials,
  args: { repo: RepoRef; page: number; perPage?: number },
): Promise<ContributorsPage> {
  const { repo, page } = args;
  const perPage = args.perPage ?? DEFAULT_CONTRIBUTORS_PER_PAGE;
  if (!Number.isInteger(page) || page < 1) throw new RangeError(`page must be an integer >= 1, got ${page}`);
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_CONTRIBUTORS_PER_PAGE) {
    throw new RangeError(`perPage must be an integer from 1 to ${MAX_CONTRIBUTORS_PER_PAGE}, got ${perPage}`);
  }
  const url =
    `${deps.restUrl}/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}/contributors` +
    `?page=${page}&per_page=${perPage}&anon=1`;
  const storeId = `contributors ${credentials.fingerprint} ${url}`;

  let stored: { entry: ConditionalEntry; items: ContributorsBody } | undefined;
  try {
    const entry = await deps.conditionalStore.get(storeId);
    // An entry whose body no longer parses would be served again on every 304: ignore it.
    const items = entry ? contributorsBodySchema.safeParse(entry.body) : undefined;
    if (entry && items?.success) stored = { entry, items: items.data };
  } catch (error) {
    deps.logger.warn({ err: error, operation: "Contributors" }, "conditional store read failed");
  }

  const { exchange, ctx } = await deps.rest.get({
    ...credentials,
    operation: "Contributors",
    url,
    variables: { owner: repo.owner, repo: repo.name, page, perPage },
    ...(stored ? { ifNoneMatch: stored.entry.etag } : {}),
  });

  if (exchange.status === 304 && stored) {
    return toContributorsPage(stored.items, page, perPage, stored.entry.link);
  }
  if (exchange.status === 204) throw new EmptyRepositoryError(repo, contextOf(ctx, exchange));
  if (exchange.status !== 200) throw httpFailure(exchange, ctx, { api: "rest", repo });

  const body = parseJsonBody(exchange.bodyText);
  const parsed = contributorsBodySchema.safeParse(body);
  if (!parsed.success) throw new UpstreamError("unreadable", contextOf(ctx, exchange, parsed.error));
  const link = exchange.headers.get("link");
  const etag = exchange.headers.get("etag");
  if (etag) {
    try {
      await deps.conditionalStore.set(storeId, { etag, body, link });
    } catch (error) {
      deps.logger.warn({ err: error, operation: "Contributors" }, "conditional store write failed");
    }
  }
  return toContributorsPage(parsed.data, page, perPage, link);
}

/** Maps GitHub's items and Link header to the page the rest of RepoScout reads. */
export function toContributorsPage(
  items: ContributorsBody,
  page: number,
  perPage: number,
  link: string | null,
): ContributorsPage {
  const contributors = items.map((item): Contributor =>
    // Account items have a login; anonymous ones (`anon=1`) have a name and an email instead.
    "login" in item
      ? {
          kind: "account",
          login: item.login,
          htmlUrl: item.html_url,
          // GitHub may add account types; anything else reads as a user rather than failing the page.
          type: item.type === "Bot" || item.type === "Organization" ? item.type : "User",
          contributions: item.contributions,
        }
      : {
          kind: "anonymous",
          name: item.name ?? null,
          email: item.email ?? null,
          contributions: item.contributions,
        },
  );
  const relations = parseLinkHeader(link);
  const hasNextPage = relations["next"] !== undefined;
  const last = pageOfLink(relations["last"]);
  // Without `last`: on the last page GitHub links only `prev` and `first`, and without any Link
  // header everything fits on one page. An empty page past the end has no known last page.
  const lastPage = last ?? (hasNextPage || (contributors.length === 0 && page > 1) ? null : page);
  return {
    page,
    perPage,
    contributors,
    lastPage,
    hasNextPage,
    hasPreviousPage: relations["prev"] !== undefined || page > 1,
  };
}
