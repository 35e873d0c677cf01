/**
 * An http(s) URL in chat text: it ends at white space and at the characters that close markdown
 * around it (`<url>`, `[text](url)`, `||spoiler||`, `` `code` ``, quotes).
 */
export const URL_IN_TEXT = /https?:\/\/[^\s<>()[\]{}"'`|\\]+/gi;
/** Punctuation a sentence puts after a link, not part of it. */
const TRAILING = /[.,;:!?*_~]+$/;
/** A message holds at most 4,000 characters; links past this many are not looked at. */
export const MAX_URLS_READ = 50;

/** One URL of chat text. */
export interface UrlInText {
  /** The URL as written, without the punctuation a sentence put after it. */
  url: string;
  /** Its host, lower case, without `www.`. */
  host: string;
  /** Where it starts in the text. */
  at: number;
}

/**
 * The http(s) URLs of chat text in the order written, the first {@link MAX_URLS_READ} only; one
 * that does not parse as a URL is passed over. What the message menus and the link previews both
 * read a message's links from.
 */
export function* urlsInText(text: string): Generator<UrlInText> {
  let read = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    if (++read > MAX_URLS_READ) return;
    const url = match[0].replace(TRAILING, "");
    let host: string;
    try {
      host = new URL(url).host.toLowerCase().replace(/^www\./, "");
    } catch {
      continue;
    }
    yield { url, host, at: match.index };
  }
}
