import type { WorldDefinition, WorldRepository } from "./github/index.js";

/** How many lines of repositories of one owner the guide shows before it summarises the rest. */
const LINES_PER_OWNER = 12;
/** From this many repositories in a row that say the same, one line names the first and the last. */
const RUN = 3;

/** What a repository is there for: its marks (private...) and its note. */
function purpose(repository: WorldRepository): string {
  return [
    repository.isPrivate ? "🔒 private" : "",
    repository.contributorsTooLarge ? "contributors: too large for GitHub to list" : "",
    repository.collaborators?.length ? `collaborator: ${repository.collaborators.join(", ")}` : "",
    repository.note ?? "",
  ]
    .filter(Boolean)
    .join("; ");
}

/** One line per repository, a run of repositories that say the same as one line. */
function repositoryLines(repositories: readonly WorldRepository[]): string[] {
  const lines: string[] = [];
  for (let start = 0; start < repositories.length;) {
    const what = purpose(repositories[start]!);
    let end = start + 1;
    while (end < repositories.length && purpose(repositories[end]!) === what) end += 1;
    const first = repositories[start]!;
    const last = repositories[end - 1]!;
    const tail = what ? ` — ${what}` : "";
    if (end - start >= RUN) {
      lines.push(`  ${first.owner}/${first.name} … ${last.owner}/${last.name} (${end - start})${tail}`);
    } else {
      for (const repository of repositories.slice(start, end))
        lines.push(`  ${repository.owner}/${repository.name}${tail}`);
    }
    start = end;
  }
  return lines;
}

/**
 * The sandbox's `/demo`: what the demo world holds, read from the stand-in's world definition
 * (owners, their repositories and what each is there for, which token is whose), so the list
 * follows the world when it changes. `perPage` is the page size of `/repos`: an owner with more
 * repositories than that is pointed out, for trying the Previous / Next buttons.
 */
export function describeDemoWorld(
  definition: WorldDefinition,
  options: { perPage: number; defaultToken?: string },
): string {
  const owners = new Map<string, WorldRepository[]>();
  for (const repository of definition.repositories) {
    const list = owners.get(repository.owner) ?? [];
    list.push(repository);
    owners.set(repository.owner, list);
  }
  const out = ["The demo world (the local GitHub serves it from real git repositories):"];
  for (const [login, repositories] of owners) {
    const organization = definition.organizations.find(
      (candidate) => candidate.login.toLowerCase() === login.toLowerCase(),
    );
    const user = definition.users.find((candidate) => candidate.login.toLowerCase() === login.toLowerCase());
    const kind = organization
      ? `organization${organization.members?.length ? `; members ${organization.members.join(", ")}` : ""}`
      : `user${user?.name ? ` ${user.name}` : ""}`;
    const count = `${repositories.length} ${repositories.length === 1 ? "repository" : "repositories"}`;
    const paging =
      repositories.length > options.perPage ? `, more than a page: try /repos owner:${login}` : "";
    out.push("", `${login} (${kind}): ${count}${paging}`);
    const lines = repositoryLines(repositories);
    out.push(...lines.slice(0, LINES_PER_OWNER));
    if (lines.length > LINES_PER_OWNER) {
      const last = repositories.at(-1)!;
      out.push(`  … and ${lines.length - LINES_PER_OWNER} more lines, up to ${last.owner}/${last.name}`);
    }
  }
  const tokens = Object.entries(definition.tokens);
  if (tokens.length > 0) {
    out.push("", "Tokens of the local GitHub (paste one into the /token set form):");
    for (const [token, login] of tokens) {
      out.push(`  ${login}: ${token}${token === options.defaultToken ? " (the bot's default token)" : ""}`);
    }
  }
  return out.join("\n");
}
