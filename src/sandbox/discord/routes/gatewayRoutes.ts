import type { RouteDefinition } from "../router.js";

/**
 * `GET /gateway` (public) and `GET /gateway/bot` (the URL of the stand-in's gateway, the
 * recommended shard count, one per 1,000 guilds unless set, and the session start budget with
 * `max_concurrency`, which discord.js uses to pace identifies).
 */
export const gatewayRoutes: RouteDefinition[] = [
  {
    method: "GET",
    template: "/gateway",
    auth: "none",
    handler: ({ state }) => ({ status: 200, body: { url: state.gatewayUrl } }),
  },
  {
    method: "GET",
    template: "/gateway/bot",
    auth: "bot",
    handler: ({ state }) => {
      const starts = state.sessionStarts;
      if (starts.resetAt <= Date.now()) {
        starts.used = 0;
        starts.resetAt = Date.now() + 86_400_000;
      }
      return {
        status: 200,
        body: {
          url: state.gatewayUrl,
          shards:
            state.gatewaySettings.recommendedShards ?? Math.max(1, Math.ceil(state.botGuildCount() / 1000)),
          session_start_limit: {
            total: starts.total,
            remaining: Math.max(0, starts.total - starts.used),
            reset_after: Math.max(0, starts.resetAt - Date.now()),
            max_concurrency: state.gatewaySettings.maxConcurrency,
          },
        },
      };
    },
  },
];
