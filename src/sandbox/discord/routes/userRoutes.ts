import {
  ApplicationFlags,
  ApplicationIntegrationType,
  type APIApplication,
  type APIUser,
} from "discord-api-types/v10";
import { guildChannels, guildPayload, memberPayload } from "../guildPayload.js";
import { basePermissions } from "../permissions.js";
import { isRecord, merged } from "../json.js";
import { invalidFormBody, restErrors } from "../restErrors.js";
import type { RouteContext, RouteDefinition } from "../router.js";
import type { DiscordState } from "../state.js";
import type { GuildRecord } from "../world.js";

/** The bot's own user as `GET /users/@me` answers it for a bot token. */
export function currentUser(state: DiscordState): APIUser {
  return merged(state.bot, { verified: true, mfa_enabled: false, email: null, locale: "en-US" });
}

/** The application as `GET /applications/@me` answers it. */
export function applicationPayload(state: DiscordState): APIApplication {
  const owner = state.world.users.owner;
  return {
    id: state.applicationId,
    name: state.bot.username,
    icon: null,
    description: "Answers questions about GitHub repositories.",
    summary: "",
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: state.application.verifyKey,
    flags: ApplicationFlags.ApplicationCommandBadge,
    team: null,
    owner: {
      id: owner.id,
      username: owner.username,
      discriminator: owner.discriminator,
      avatar: null,
      global_name: owner.global_name,
    },
    bot: state.bot,
    approximate_guild_count: state.botGuildCount(),
    redirect_uris: [],
    interactions_endpoint_url: state.application.endpointUrl(),
    role_connections_verification_url: null,
    integration_types_config: Object.fromEntries(
      state.appIntegrationTypes.map((type) => [
        type,
        type === ApplicationIntegrationType.GuildInstall
          ? {
              oauth2_install_params: {
                scopes: ["applications.commands", "bot"],
                permissions: state.options.botPermissions.toString(),
              },
            }
          : { oauth2_install_params: { scopes: ["applications.commands"], permissions: "0" } },
      ]),
    ),
    approximate_user_install_count: state.userInstalls.size,
  } as unknown as APIApplication;
}

/**
 * A guild the bot is in: 404 10004 for an unknown id, 403 50001 Missing Access for a guild the
 * bot is not a member of (a server where only users installed the app).
 */
function requireGuild({ state, params }: RouteContext): GuildRecord {
  const guild = state.guilds.get(params.guild_id ?? "");
  if (!guild) throw restErrors.unknownGuild();
  if (!guild.botMember) throw restErrors.missingAccess();
  return guild;
}

/** The bot's user and application, and read-only views of the stand-in's server. */
export const userRoutes: RouteDefinition[] = [
  {
    method: "GET",
    template: "/users/@me",
    auth: "bot",
    handler: ({ state }) => ({ status: 200, body: currentUser(state) }),
  },
  {
    method: "GET",
    template: "/users/:user_id",
    auth: "bot",
    handler: ({ state, params }) => {
      const user = state.users.get(params.user_id ?? "");
      if (!user) throw restErrors.unknownUser();
      return { status: 200, body: user };
    },
  },
  {
    method: "GET",
    template: "/applications/@me",
    auth: "bot",
    handler: ({ state }) => ({ status: 200, body: applicationPayload(state) }),
  },
  {
    method: "PATCH",
    template: "/applications/@me",
    auth: "bot",
    handler: async ({ state, body }) => {
      const fields = isRecord(body) ? body : {};
      const url = fields.interactions_endpoint_url;
      if (url !== undefined) {
        if (url !== null && typeof url !== "string") {
          throw invalidFormBody({
            interactions_endpoint_url: {
              _errors: [{ code: "BASE_TYPE_STRING", message: "Must be a string." }],
            },
          });
        }
        try {
          await state.application.saveEndpointUrl(url === "" ? null : url);
        } catch {
          // Discord's sentence, as the developer portal shows it.
          throw invalidFormBody({
            interactions_endpoint_url: {
              _errors: [
                {
                  code: "APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID",
                  message: "The specified interactions endpoint url could not be verified.",
                },
              ],
            },
          });
        }
      }
      return { status: 200, body: applicationPayload(state) };
    },
  },
  {
    method: "GET",
    template: "/oauth2/applications/@me",
    auth: "bot",
    handler: ({ state }) => ({ status: 200, body: applicationPayload(state) }),
  },
  {
    method: "GET",
    template: "/users/@me/guilds",
    auth: "bot",
    handler: ({ state, query }) => {
      // Paged as Discord pages it: at most 200 guilds, sorted by id, after `after`.
      const limit = Math.min(200, Math.max(1, Number(query.get("limit") ?? 200) || 200));
      const after = query.get("after");
      const before = query.get("before");
      const page: unknown[] = [];
      for (const id of state.botGuildIds()) {
        if (after && BigInt(id) <= BigInt(after)) continue;
        if (before && BigInt(id) >= BigInt(before)) continue;
        const guild = state.peekGuild(id)!;
        const me = guild.members.get(state.bot.id);
        page.push({
          id,
          name: guild.name,
          icon: null,
          banner: null,
          owner: false,
          permissions: me
            ? basePermissions(guild, { userId: me.user.id, roleIds: me.roleIds }).toString()
            : "0",
          features: [...guild.features],
        });
      }
      page.sort((a, b) => (BigInt((a as { id: string }).id) < BigInt((b as { id: string }).id) ? -1 : 1));
      return { status: 200, body: before ? page.slice(-limit) : page.slice(0, limit) };
    },
  },
  {
    method: "GET",
    template: "/guilds/:guild_id",
    auth: "bot",
    major: "guild_id",
    handler: (context) => ({ status: 200, body: guildPayload(context.state, requireGuild(context)) }),
  },
  {
    method: "GET",
    template: "/guilds/:guild_id/channels",
    auth: "bot",
    major: "guild_id",
    handler: (context) => ({ status: 200, body: guildChannels(context.state, requireGuild(context)) }),
  },
  {
    method: "GET",
    template: "/guilds/:guild_id/members/:user_id",
    auth: "bot",
    major: "guild_id",
    handler: (context) => {
      const guild = requireGuild(context);
      const member = memberPayload(context.state, context.params.user_id ?? "", guild);
      if (!member) throw restErrors.unknownMember();
      return { status: 200, body: member };
    },
  },
];
