/**
 * `npm run invite`: prints the server invite URL, with exactly the permissions the bot uses
 * (src/bot/permissions.ts), and the install link for a user install. Needs DISCORD_CLIENT_ID.
 */
import { ConfigError, loadConfigFromProcess } from "./config.js";
import { BOT_PERMISSIONS, invitePermissions, serverInviteUrl, userInstallUrl } from "./bot/permissions.js";

async function main(): Promise<number> {
  let clientId: string | undefined;
  try {
    clientId = (await loadConfigFromProcess()).discord.clientId;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 1;
  }
  if (!clientId) {
    console.error(
      "DISCORD_CLIENT_ID is not set: it is the application id (developer portal, General Information > Application ID). Set it in .env and run `npm run invite` again.",
    );
    return 1;
  }
  const lines = [
    "Add RepoScout to a server (a server admin opens this):",
    `  ${serverInviteUrl(clientId)}`,
    `  permissions ${invitePermissions()}: ${Object.values(BOT_PERMISSIONS)
      .map((permission) => permission.name)
      .join(", ")}`,
    "",
    "Install RepoScout to your own account (its commands in any server or DM, no bot user):",
    `  ${userInstallUrl(clientId)}`,
    "  (turn on User Install under Installation in the developer portal first)",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

process.exit(await main());
