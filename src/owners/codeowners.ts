/**
 * GitHub's CODEOWNERS, read as GitHub reads it (GITHUB-FACTS.md "History and CODEOWNERS"): one rule
 * a line, a pattern then owners (`@user`, `@org/team`, an e-mail); `#` starts a comment (`\#`
 * escapes it); patterns follow gitignore's rules without `!` negation and `[ ]` ranges; matching is
 * case-sensitive; the LAST matching rule wins; a rule with no owners leaves the path unowned; a line
 * GitHub cannot parse is skipped and the others still apply. Pure functions.
 */

/** Where GitHub looks for the file, in order: the first found is the one used. */
export const CODEOWNERS_LOCATIONS = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"] as const;

/** GitHub ignores a CODEOWNERS file over 3 MB. */
export const CODEOWNERS_MAX_BYTES = 3 * 1024 * 1024;

/** One rule of the file. */
export interface CodeownersRule {
  /** 1-based line number in the file. */
  line: number;
  pattern: string;
  /** Empty: the paths it matches have no owner. */
  owners: string[];
}

/** A line GitHub would not apply, and why. */
export interface SkippedLine {
  line: number;
  reason: "negation" | "range" | "owner";
}

/** The rules of a file, and the lines skipped. */
export interface Codeowners {
  rules: CodeownersRule[];
  skipped: SkippedLine[];
}

const OWNER =
  /^(?:@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\/[A-Za-z0-9._-]+)?|[^@\s]+@[^@\s]+\.[^@\s]+)$/;

/** Splits a line into whitespace-separated words; `\ ` keeps a space in a word, `\#` a hash. */
function words(line: string): string[] {
  const result: string[] = [];
  let current = "";
  let started = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    if (char === "\\" && index + 1 < line.length) {
      current +=
        line[index + 1] === "#" || line[index + 1] === " " ? line[index + 1] : `\\${line[index + 1]}`;
      started = true;
      index += 1;
    } else if (char === "#" && (!started || current === "")) {
      // An unescaped `#` at the start of a word starts a comment.
      break;
    } else if (/\s/.test(char)) {
      if (started) result.push(current);
      current = "";
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (started) result.push(current);
  return result;
}

/** Reads a CODEOWNERS file's text into its rules; comments and blank lines are not rules. */
export function parseCodeowners(text: string): Codeowners {
  const rules: CodeownersRule[] = [];
  const skipped: SkippedLine[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const [pattern, ...owners] = words(raw);
    if (pattern === undefined) return;
    if (pattern.startsWith("!")) skipped.push({ line, reason: "negation" });
    else if (/[[\]]/.test(pattern)) skipped.push({ line, reason: "range" });
    else if (!owners.every((owner) => OWNER.test(owner))) skipped.push({ line, reason: "owner" });
    else rules.push({ line, pattern, owners });
  });
  return { rules, skipped };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+^${}()|\\]/g, "\\$&");
}

/** The body of a pattern (no leading or trailing slash) as a regular expression source. */
function globSource(body: string): string {
  let source = "";
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (char === "*" && body[index + 1] === "*") {
      const slashAfter = body[index + 2] === "/";
      const atStart = index === 0 || body[index - 1] === "/";
      if (atStart && slashAfter) {
        source += "(?:.*/)?"; // `**/`: zero or more folders
        index += 2;
      } else {
        source += ".*"; // `/**` at the end, or `**` inside a name: anything
        index += 1;
      }
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else {
      source += escapeRegExp(char);
    }
  }
  return source;
}

/**
 * A pattern as a test of a file's path (from the root, no leading slash). A pattern with a slash at
 * its start or middle is anchored at the root, else it matches at any depth. A trailing slash
 * matches folders only: the files under them. A pattern also matches the files under a folder it
 * names, except one whose last part is a lone `*` (`docs/*`: the files directly in `docs`).
 */
export function patternMatcher(pattern: string): (path: string) => boolean {
  const folderOnly = pattern.endsWith("/");
  const body = pattern.replace(/^\/+/, "").replace(/\/+$/, "");
  const anchored = pattern.startsWith("/") || body.includes("/");
  const lastPart = body.slice(body.lastIndexOf("/") + 1);
  const prefix = anchored ? "^" : "^(?:.*/)?";
  const suffix = folderOnly ? "/.*$" : lastPart === "*" ? "$" : "(?:/.*)?$";
  const expression = new RegExp(`${prefix}${globSource(body)}${suffix}`, "s");
  return (path) => expression.test(path);
}

/** The rule that owns `path`: the last one that matches; undefined when none does. */
export function ownerRule(codeowners: Codeowners, path: string): CodeownersRule | undefined {
  for (let index = codeowners.rules.length - 1; index >= 0; index -= 1) {
    const rule = codeowners.rules[index]!;
    if (patternMatcher(rule.pattern)(path)) return rule;
  }
  return undefined;
}
