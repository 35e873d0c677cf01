import { UserFacingError } from "../errors.js";

/** The lists RepoScout pages through, and whose they are. */
export type PagedList = "contributors" | "repositories";

/**
 * A page past the end of a list: `page:4` of a list of 3 pages (GitHub answers such a page with
 * nothing on it), or a Next pressed on a list that has shrunk since. `pages` is how many pages the
 * list has, or null when GitHub did not say.
 */
export class PageOutOfRangeError extends UserFacingError {
  readonly code = "page_out_of_range";
  constructor(
    readonly list: PagedList,
    /** `owner/name` for contributors, the owner's login for repositories. */
    readonly subject: string,
    readonly page: number,
    readonly pages: number | null,
  ) {
    super();
  }
}

/**
 * Refuses an empty page past the end of a list, so the asker reads how many pages there are rather
 * than an empty answer. Page 1 is never out of range: an empty first page is an empty list, which
 * the list's own answer says.
 *
 * @param shown how many entries the page holds
 * @param pages how many pages the list has, when known
 * @throws PageOutOfRangeError
 */
export function checkPageInRange(args: {
  list: PagedList;
  subject: string;
  page: number;
  shown: number;
  pages: number | null;
}): void {
  const { page, shown, pages } = args;
  if (page <= 1 || shown > 0) return;
  if (pages === null || page > pages) {
    throw new PageOutOfRangeError(args.list, args.subject, page, pages);
  }
}
