/** The targets of a `Link` header by relation type (`next`, `prev`, `first`, `last`...). */
export type LinkRelations = Partial<Record<string, string>>;

/**
 * Parses a `Link` header (RFC 8288) as GitHub writes it:
 * `<https://api.github.com/repositories/1/contributors?page=2>; rel="next", <...>; rel="last"`.
 *
 * Tolerant on purpose: any spacing around `<`, `>`, `;`, `,` and `=`, quoted or bare values,
 * commas inside the `<...>` target or inside quoted values, several relation types in one `rel`
 * (`rel="next last"`), parameter names in any case. A link without `rel` is skipped; for a relation
 * given twice the first one wins (RFC 8288 section 3.3). A missing or empty header gives `{}`.
 */
export function parseLinkHeader(header: string | null | undefined): LinkRelations {
  const relations: LinkRelations = {};
  if (!header) return relations;
  let at = 0;
  const length = header.length;

  while (at < length) {
    const open = header.indexOf("<", at);
    if (open === -1) break;
    const close = header.indexOf(">", open + 1);
    if (close === -1) break;
    const target = header.slice(open + 1, close).trim();
    at = close + 1;

    // Parameters run up to the next comma that is outside quotes.
    const params = new Map<string, string>();
    while (at < length) {
      while (at < length && /\s/.test(header[at]!)) at++;
      if (header[at] === ",") {
        at++;
        break;
      }
      if (header[at] !== ";") {
        // Junk between links: skip to the next link.
        const next = header.indexOf(",", at);
        at = next === -1 ? length : next + 1;
        break;
      }
      at++;
      while (at < length && /\s/.test(header[at]!)) at++;
      const nameMatch = /^[^=;,\s]+/.exec(header.slice(at));
      if (!nameMatch) continue;
      const name = nameMatch[0].toLowerCase();
      at += nameMatch[0].length;
      while (at < length && /\s/.test(header[at]!)) at++;
      let value = "";
      if (header[at] === "=") {
        at++;
        while (at < length && /\s/.test(header[at]!)) at++;
        if (header[at] === '"') {
          at++;
          while (at < length && header[at] !== '"') {
            if (header[at] === "\\" && at + 1 < length) at++;
            value += header[at];
            at++;
          }
          at++; // the closing quote
        } else {
          const bare = /^[^;,]*/.exec(header.slice(at))![0];
          value = bare.trim();
          at += bare.length;
        }
      }
      if (!params.has(name)) params.set(name, value);
    }

    const rel = params.get("rel");
    if (rel === undefined || target === "") continue;
    for (const type of rel.toLowerCase().split(/\s+/)) {
      if (type !== "" && relations[type] === undefined) relations[type] = target;
    }
  }
  return relations;
}

/**
 * The `page` query parameter of a link target, or undefined when it has none or is not a URL. A
 * target without `page` means page 1 (GitHub's `first` link sometimes omits it).
 */
export function pageOfLink(target: string | undefined): number | undefined {
  if (target === undefined) return undefined;
  try {
    const page = new URL(target).searchParams.get("page");
    if (page === null) return 1;
    const value = Number(page);
    return Number.isInteger(value) && value >= 1 ? value : undefined;
  } catch {
    return undefined;
  }
}
