import { signInRefusedSentence } from "./errorSentence.js";
import { escapeLabel } from "./escape.js";
import { fitMessage } from "./limits.js";
import {
  COLORS,
  discordTimestamp,
  emptyMessage,
  linkButton,
  rowOf,
  type FormattedMessage,
} from "./message.js";

/**
 * What a person reads while signing in with `/login` and out with `/logout` (SPEC sections 1 and
 * 4). Never a token: only the one-time user code, which is theirs to type on GitHub.
 */

/** The first answer of `/login`: the code to type, where, and until when. */
export interface SignInPrompt {
  userCode: string;
  verificationUri: string;
  /** When polling stops: the code's expiry, or the end of the interaction's 15 minutes if earlier. */
  expiresAt: Date;
}

/** How a sign-in ended. */
export type SignInOutcomeView =
  | { kind: "signedIn"; login: string }
  | { kind: "denied" }
  | { kind: "expired" }
  /** The bot stopped (a restart) while waiting. */
  | { kind: "stopped" }
  /** GitHub refused the flow itself, with this error code (`device_flow_disabled`...). */
  | { kind: "failed"; code: string };

/** What `/logout` did. */
export type SignOutView =
  | { kind: "notSignedIn" }
  | {
      kind: "signedOut";
      login: string;
      /** yes: GitHub revoked the token; noSecret: no client secret to revoke with; failed: GitHub did not. */
      revoked: "yes" | "noSecret" | "failed";
      /** Where the person can revoke the app's access on GitHub themselves. */
      settingsUrl: string;
    };

/** A user code holds letters, digits and a hyphen; anything else is dropped before it is shown. */
function cleanCode(code: string): string {
  return code.replace(/[^A-Za-z0-9-]/g, "").slice(0, 32) || "?";
}

/**
 * The `/login` prompt: the code in large type, a Link button to GitHub's device page, and when the
 * code expires (a Discord timestamp, in the reader's own time). A URL that is not http(s) gets no
 * button (the text still names the page).
 */
export function formatSignInPrompt(prompt: SignInPrompt): FormattedMessage {
  const message = emptyMessage();
  const expires = discordTimestamp(prompt.expiresAt.toISOString(), "R") ?? "soon";
  message.embeds.push({
    title: "Sign in to GitHub",
    color: COLORS.whoami,
    description: [
      "1. Open GitHub's device page with the button below.",
      `2. Enter this code: **\`${cleanCode(prompt.userCode)}\`**`,
      "3. Approve the access RepoScout asks for.",
      "",
      `The code expires ${expires}. This message changes once you have answered on GitHub. ` +
        "RepoScout never sees your password and never shows your token.",
    ].join("\n"),
  });
  const row = rowOf([linkButton("Open GitHub's device page", prompt.verificationUri)]);
  if (row) message.components.push(row);
  return fitMessage(message);
}

/** What the `/login` message turns into once the sign-in ended, one way or another. */
export function formatSignInOutcome(outcome: SignInOutcomeView): FormattedMessage {
  const message = emptyMessage();
  switch (outcome.kind) {
    case "signedIn":
      message.embeds.push({
        title: "Signed in to GitHub",
        color: COLORS.notice,
        description:
          `✅ Signed in as **${escapeLabel(outcome.login, 100)}**. Your commands now read GitHub as you ` +
          "(`/whoami` shows `you`). `/logout` signs you out.",
      });
      break;
    case "denied":
      message.embeds.push({
        color: COLORS.error,
        description: "⚠️ You declined on GitHub, so you are not signed in. Run `/login` to try again.",
      });
      break;
    case "expired":
      message.embeds.push({
        color: COLORS.error,
        description:
          "⚠️ The code expired before it was approved, so you are not signed in. Run `/login` for a new code.",
      });
      break;
    case "stopped":
      message.embeds.push({
        color: COLORS.error,
        description: "⚠️ RepoScout restarted before you finished signing in. Run `/login` again.",
      });
      break;
    case "failed":
      message.embeds.push({ color: COLORS.error, description: `⚠️ ${signInRefusedSentence(outcome.code)}` });
      break;
  }
  return fitMessage(message);
}

/** The `/logout` confirmation. */
export function formatSignOut(view: SignOutView): FormattedMessage {
  const message = emptyMessage();
  if (view.kind === "notSignedIn") {
    message.embeds.push({
      color: COLORS.notice,
      description: "You were not signed in to GitHub here; nothing changed.",
    });
    return fitMessage(message);
  }
  const login = escapeLabel(view.login, 100);
  const revoked =
    view.revoked === "yes"
      ? "GitHub has revoked the token too."
      : `The token stays valid on GitHub until you revoke RepoScout's access there: ${view.settingsUrl}`;
  const lead =
    view.revoked === "failed"
      ? `Signed out: RepoScout forgot your token for **${login}**, but GitHub did not confirm revoking it.`
      : `Signed out: RepoScout forgot your token for **${login}**.`;
  message.embeds.push({
    color: COLORS.notice,
    description: `${lead} ${revoked} Your commands now use this server's token or the bot's default.`,
  });
  return fitMessage(message);
}
