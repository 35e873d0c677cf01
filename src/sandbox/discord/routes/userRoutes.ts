import {
  ApplicationFlags,
  ApplicationIntegrationType,
  type APIApplication,
  type APIUser,
} from "discord-api-types/v10";
import { guildChannels, guildPayload, memberPayload } from "../guildPayload.js";
import { restErrors } from "../restErrors.js";
import type { RouteContext, RouteDefinition } from "../router.js";
import type { DiscordState } from "../state.js";

/** The bot's own user as `GET /users/@me` answers it for a bot token. */
export function currentUser(state: DiscordState): APIUser {
  return { ...state.bot, verified: true, mfa_enabled: false, email: null, locale: "en-US" };
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
    verify_key: "0".repeat(64),
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
    approximate_guild_count: 1,
    approximate_user_install_count: 0,
    redirect_uris: [],
    interactions_endpoint_url: null,
    role_connections_verification_url: null,
    integration_types_config: {
      [ApplicationIntegrationType.GuildInstall]: {},
    },
  } as unknown as APIApplication;
}

function requireGuild({ state, params }: RouteContext): void {
  if (params.guild_id !== state.guild.id) throw restErrors.unknownGuild();
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
    method: "GET",
    template: "/oauth2/applications/@me",
    auth: "bot",
    handler: ({ state }) => ({ status: 200, body: applicationPayload(state) }),
  },
  {
    method: "GET",
    template: "/users/@me/guilds",
    auth: "bot",
    handler: ({ state }) => ({
      status: 200,
      body: [
        {
          id: state.guild.id,
          name: state.guild.name,
          icon: null,
          banner: null,
          owner: false,
          permissions: state.botPermissionsIn(state.world.channels.text.id).toString(),
          features: [],
        },
      ],
    }),
  },
  {
    method: "GET",
    template: "/guilds/:guild_id",
    auth: "bot",
    major: "guild_id",
    handler: (context) => {
      requireGuild(context);
      return { status: 200, body: guildPayload(context.state) };
    },
  },
  {
    method: "GET",
    template: "/guilds/:guild_id/channels",
    auth: "bot",
    major: "guild_id",
    handler: (context) => {
      requireGuild(context);
      return { status: 200, body: guildChannels(context.state) };
    },
  },
  {
    method: "GET",
    template: "/guilds/:guild_id/members/:user_id",
    auth: "bot",
    major: "guild_id",
    handler: (context) => {
      requireGuild(context);
      const member = memberPayload(context.state, context.params.user_id ?? "");
      if (!member) throw restErrors.unknownMember();
      return { status: 200, body: member };
    },
  },
];
