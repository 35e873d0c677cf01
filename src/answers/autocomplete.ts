import type { APIApplicationCommandOptionChoice } from "discord-api-types/v10";
import { parseRef } from "../input/refArgument.js";
import { parseRepoArgument, webHostsOf } from "../input/repoArgument.js";
import type { LatestOnly } from "./latestOnly.js";
import type { Asker, Scout } from "./scout.js";

/**
 * What suggestions read: the Scout's lookups, one upstream lookup per user at a time, and the web
 * host of pasted URLs. The bot's `Services` has all of it; nothing here reaches back into `bot/`.
 */
export interface AutocompleteDeps {
  scout: Pick<Scout, "recentRepositories" | "repositories" | "contents">;
  lookups: LatestOnly;
  config: { github: { webUrl: string } };
}

/** Discord's limits on autocomplete: 25 choices, name 1..100, value up to 100. */
const MAX_CHOICES = 25;
const MAX_CHOICE = 100;

function choice(name: string, value: string): APIApplicationCommandOptionChoice | null {
  if (value.length === 0 || value.length > MAX_CHOICE) return null;
  const shown = name.length > MAX_CHOICE ? `${name.slice(0, MAX_CHOICE - 1)}…` : name;
  return { name: shown || value, value };
}

function compact<T>(items: ReadonlyArray<T | null>): T[] {
  return items.filter((item): item is T => item !== null);
}

/**
 * Suggestions for a `repo` option: the repositories recently read with the asker's token first,
 * then the typed owner's repositories (most recently pushed first) whose name matches what follows
 * the slash.
 */
export async function suggestRepositories(
  typed: string,
  asker: Asker,
  services: AutocompleteDeps,
): Promise<APIApplicationCommandOptionChoice[]> {
  const text = typed.trim();
  const lower = text.toLowerCase();
  const recent = (await services.scout.recentRepositories(asker)).filter((name) =>
    name.toLowerCase().includes(lower),
  );
  const suggestions = new Map<string, APIApplicationCommandOptionChoice>();
  for (const name of recent) {
    const item = choice(`${name} (recent)`, name);
    if (item) suggestions.set(name.toLowerCase(), item);
  }
  const slash = text.indexOf("/");
  const owner = slash === -1 ? text : text.slice(0, slash);
  const partial = slash === -1 ? "" : text.slice(slash + 1).toLowerCase();
  if (/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/.test(owner) && !text.includes("://")) {
    // What is typed is often not an owner yet ("widg" on the way to a recent "demo/widgets"): a
    // lookup that fails must not take the recent matches down with it. Only the user's latest
    // keystroke goes upstream; the owner's list is cached, so "demo/w", "demo/wi"... reuse it.
    const fetched = await services.lookups
      .run(asker.userId, () =>
        services.scout.repositories(asker, { login: owner, first: 100, sort: "pushed" }),
      )
      .catch(() => null);
    const matches = (fetched?.value.repositories ?? []).filter((repo) =>
      repo.name.toLowerCase().includes(partial),
    );
    matches.sort(
      (a, b) =>
        Number(!a.name.toLowerCase().startsWith(partial)) - Number(!b.name.toLowerCase().startsWith(partial)),
    );
    for (const repo of matches) {
      const item = choice(`${repo.nameWithOwner}${repo.isPrivate ? " 🔒" : ""}`, repo.nameWithOwner);
      if (item && !suggestions.has(repo.nameWithOwner.toLowerCase()))
        suggestions.set(repo.nameWithOwner.toLowerCase(), item);
    }
  }
  return [...suggestions.values()].slice(0, MAX_CHOICES);
}

/**
 * Suggestions for a `path` option: the entries of the folder typed so far (at the default branch,
 * or the `ref` option, or the ref a URL in `repo` names), folders first and marked with a trailing
 * slash, so a person can walk into them.
 */
export async function suggestPaths(
  repoText: string,
  typed: string,
  asker: Asker,
  services: AutocompleteDeps,
  refText?: string,
): Promise<APIApplicationCommandOptionChoice[]> {
  let parsed;
  let ref: string | undefined;
  try {
    parsed = parseRepoArgument(repoText, webHostsOf(services.config.github.webUrl));
    // The `ref` option wins over a URL's ref, as it does when the command runs.
    ref = refText !== undefined && refText.trim() !== "" ? parseRef(refText) : parsed.ref;
  } catch {
    return [];
  }
  const text = typed.replace(/^\/+/, "");
  const cut = text.lastIndexOf("/");
  const folder = cut === -1 ? "" : text.slice(0, cut);
  const prefix = (cut === -1 ? text : text.slice(cut + 1)).toLowerCase();
  if (folder.split("/").some((segment) => segment === ".." || segment === ".")) return [];
  const fetched = await services.lookups.run(asker.userId, () =>
    services.scout.contents(asker, {
      repo: parsed.repo,
      path: folder,
      ...(ref !== undefined ? { ref } : {}),
    }),
  );
  // A newer keystroke of this user is on its way: Discord shows only the latest answer anyway.
  if (fetched === undefined) return [];
  if (fetched.value.kind !== "tree") {
    const item = choice(fetched.value.path, fetched.value.path);
    return item ? [item] : [];
  }
  const entries = fetched.value.entries
    .filter((entry) => entry.name.toLowerCase().startsWith(prefix))
    .sort((a, b) => Number(a.type !== "tree") - Number(b.type !== "tree") || a.name.localeCompare(b.name));
  return compact(
    entries.map((entry) =>
      entry.type === "tree" ? choice(`📁 ${entry.path}/`, `${entry.path}/`) : choice(entry.path, entry.path),
    ),
  ).slice(0, MAX_CHOICES);
}

/**
 * The autocomplete of a command with `repo` and `path` options (and an optional `ref`): repositories
 * for `repo`, the entries of the folder typed so far for `path`.
 */
export async function autocompleteRepoAndPath(
  focused: { name: string; value: string },
  options: Readonly<Record<string, string | number | boolean | undefined>>,
  request: Asker,
  services: AutocompleteDeps,
): Promise<APIApplicationCommandOptionChoice[]> {
  if (focused.name === "repo") return suggestRepositories(focused.value, request, services);
  if (focused.name !== "path") return [];
  const ref = typeof options.ref === "string" ? options.ref : undefined;
  return suggestPaths(String(options.repo ?? ""), focused.value, request, services, ref);
}
