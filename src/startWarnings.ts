import type { Config } from "./config.js";

/**
 * What an operator must hear at start about a configuration that runs but cannot do its job: each a
 * short line, logged once as a warning. Empty when nothing is amiss.
 */
export function startWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (!config.tokens.encryptionKey) {
    warnings.push(
      "TOKEN_ENCRYPTION_KEY is not set: no server token and no /login sign-in can be stored (`openssl rand -base64 32` makes one; back it up: losing it makes every stored token unreadable)",
    );
  }
  if (!config.github.defaultToken && !config.github.oauth.clientId) {
    warnings.push(
      "neither GITHUB_TOKEN nor GITHUB_OAUTH_CLIENT_ID is set: nobody can read anything until a server admin runs /token set",
    );
  }
  if (config.discord.messageContent && config.discord.publicKey) {
    warnings.push(
      "DISCORD_MESSAGE_CONTENT=true has no effect with DISCORD_PUBLIC_KEY: interactions over HTTP carry no messages, so there are no automatic link previews (run over the gateway for them)",
    );
  }
  return warnings;
}

/** The line for a start without DISCORD_TOKEN and without a terminal (SPEC section 6). */
export const MISSING_DISCORD_TOKEN =
  "DISCORD_TOKEN is missing, so RepoScout cannot connect to Discord. Set it in the environment or in .env (see .env.example). Without a terminal the local sandbox is not started; run `npm run sandbox` for it.";

/** The line for a start without DISCORD_TOKEN on a terminal, in an install without the sandbox's packages. */
export const SANDBOX_NEEDS_DEVELOPMENT_INSTALL =
  "DISCORD_TOKEN is missing, so RepoScout cannot connect to Discord, and the local sandbox needs the development install (`npm install`, not `npm ci --omit=dev`). Set DISCORD_TOKEN in the environment or in .env (see .env.example).";
