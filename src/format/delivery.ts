/**
 * The lines a person reads about where an answer went (SPEC section 3) and about the bot's own
 * state: why an answer is not in a thread, the summary left in the channel, a restart, a private
 * answer withheld. The interaction core decides; these words are the only place it is said.
 */

/** Why an answer that was to go into a thread is in place instead. */
export type ThreadUnavailable =
  | { kind: "directMessage" }
  /** The app reached the place through the asker's own install: the bot is not a member there. */
  | { kind: "userInstall" }
  | { kind: "notTextChannel" }
  /** Permissions the bot lacks in the channel, by their names in Discord's settings. */
  | { kind: "missingPermissions"; missing: string[] }
  /** Discord refused to start the thread; `permission` when it said the bot lacks a permission. */
  | { kind: "refused"; permission: boolean };

/** The small line under an answer that says why it is here and not in a thread. */
export function threadUnavailableNote(reason: ThreadUnavailable): string {
  switch (reason.kind) {
    case "directMessage":
      return "-# Threads cannot be started in direct messages, so the answer is here.";
    case "userInstall":
      return "-# RepoScout is installed to your account, not to this place, so it cannot start threads here; the answer is here.";
    case "notTextChannel":
      return "-# Threads can only be started in text channels, so the answer is here.";
    case "missingPermissions": {
      const plural = reason.missing.length > 1 ? "s" : "";
      return `-# I could not start a thread: I lack the ${reason.missing.join(" and ")} permission${plural} in this channel, so the answer is here.`;
    }
    case "refused":
      return reason.permission
        ? "-# I lack the permission to start threads here, so the answer is here."
        : "-# Discord refused to start a thread here, so the answer is here.";
  }
}

/** What the channel shows when the answer went into a thread and the command gave no summary. */
export const DEFAULT_THREAD_SUMMARY = "🧵 The answer is in the thread.";

/** The reply to an interaction that arrives while the bot stops. */
export const RESTARTING = "RepoScout is restarting. Try again in a moment.";

/** What a public deferral says when it could not be removed to make way for a private answer. */
export const PRIVATE_WITHHELD =
  "The answer comes from a private repository and could not be sent to you alone here. Run the command again.";
