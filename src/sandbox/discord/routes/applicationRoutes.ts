import { editCommand, overwriteCommands, upsertCommand } from "../commands.js";
import { cloneJson } from "../json.js";
import { restErrors } from "../restErrors.js";
import type { RouteContext, RouteDefinition, RouteResult } from "../router.js";

/** The scope a command route addresses: global (null) or the stand-in's guild. */
function scopeOf({ state, params }: RouteContext): string | null {
  // A bot may only manage its own application's commands.
  if (params.application_id !== state.applicationId) throw restErrors.missingAccess();
  if (params.guild_id === undefined) return null;
  // Guild commands need the app installed to the guild (unknown guilds answer the same).
  if (state.guilds.get(params.guild_id)?.botMember !== true) throw restErrors.missingAccess();
  return params.guild_id;
}

function findCommand(context: RouteContext): { scope: string | null; index: number } {
  const scope = scopeOf(context);
  const list = context.state.commandsFor(scope);
  const index = list.findIndex((command) => command.id === context.params.command_id);
  if (index < 0) throw restErrors.unknownApplicationCommand();
  return { scope, index };
}

const handlers = {
  list: (context: RouteContext): RouteResult => ({
    status: 200,
    body: cloneJson(context.state.commandsFor(scopeOf(context))),
  }),
  overwrite: (context: RouteContext): RouteResult => ({
    status: 200,
    body: overwriteCommands(context.state, scopeOf(context), context.body),
  }),
  create: (context: RouteContext): RouteResult => {
    const { command, created } = upsertCommand(context.state, scopeOf(context), context.body);
    return { status: created ? 201 : 200, body: command };
  },
  get: (context: RouteContext): RouteResult => {
    const { scope, index } = findCommand(context);
    return { status: 200, body: cloneJson(context.state.commandsFor(scope)[index]) };
  },
  edit: (context: RouteContext): RouteResult => ({
    status: 200,
    body: editCommand(context.state, scopeOf(context), context.params.command_id ?? "", context.body),
  }),
  remove: (context: RouteContext): RouteResult => {
    const { scope, index } = findCommand(context);
    context.state.commandsFor(scope).splice(index, 1);
    return { status: 204 };
  },
};

function commandRoutes(prefix: string, major: string): RouteDefinition[] {
  return [
    { method: "GET", template: `${prefix}/commands`, auth: "bot", major, handler: handlers.list },
    { method: "PUT", template: `${prefix}/commands`, auth: "bot", major, handler: handlers.overwrite },
    { method: "POST", template: `${prefix}/commands`, auth: "bot", major, handler: handlers.create },
    { method: "GET", template: `${prefix}/commands/:command_id`, auth: "bot", major, handler: handlers.get },
    {
      method: "PATCH",
      template: `${prefix}/commands/:command_id`,
      auth: "bot",
      major,
      handler: handlers.edit,
    },
    {
      method: "DELETE",
      template: `${prefix}/commands/:command_id`,
      auth: "bot",
      major,
      handler: handlers.remove,
    },
  ];
}

/** Command registration, global and per guild (list, bulk overwrite, create, get, edit, delete). */
export const applicationRoutes: RouteDefinition[] = [
  ...commandRoutes("/applications/:application_id", "application_id"),
  ...commandRoutes("/applications/:application_id/guilds/:guild_id", "guild_id"),
];
