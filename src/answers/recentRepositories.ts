/**
 * The repositories recently asked about, per server, for autocomplete ("recent choices first").
 * Process memory only: losing it on restart costs a suggestion, nothing more.
 */
export interface RecentRepositories {
  remember(guildId: string | null, nameWithOwner: string): void;
  /** Most recent first. */
  list(guildId: string | null): string[];
}

/** Creates the recent-repositories memory: `perGuild` names for each of up to `guilds` servers. */
export function createRecentRepositories(perGuild = 10, guilds = 5_000): RecentRepositories {
  const byGuild = new Map<string, string[]>();
  return {
    remember(guildId, nameWithOwner) {
      const key = guildId ?? "dm";
      const list = (byGuild.get(key) ?? []).filter(
        (name) => name.toLowerCase() !== nameWithOwner.toLowerCase(),
      );
      list.unshift(nameWithOwner);
      byGuild.delete(key);
      byGuild.set(key, list.slice(0, perGuild));
      if (byGuild.size > guilds) {
        const oldest = byGuild.keys().next().value;
        if (oldest !== undefined) byGuild.delete(oldest);
      }
    },
    list(guildId) {
      return [...(byGuild.get(guildId ?? "dm") ?? [])];
    },
  };
}
