import { quoted } from "./errorWords.js";

/**
 * Why an answer must not be shown to everyone (SPEC section 4, private code): it was drawn from a
 * private or internal repository, or it lists some. Absent on answers anyone may read.
 */
export type AnswerPrivacy =
  | { kind: "repository"; nameWithOwner: string; visibility: "PRIVATE" | "INTERNAL" }
  | { kind: "list"; owner: string; privateCount: number };

/**
 * How a private answer reaches the asker, which decides the line that says why:
 * - `onlyYou`: ephemeral, in a server's channel whose admins keep private answers to the asker;
 * - `onlyYouNoThread`: the same, where a thread was asked for (or set by default);
 * - `onlyYouHere`: ephemeral where no server setting applies (a group DM, a user install);
 * - `inChannel`: posted as usual, the server's admins allow it (`/settings private-answers`);
 * - `directMessage`: posted as usual in a DM with the bot, which nobody else reads.
 */
export type PrivateDelivery = "onlyYou" | "onlyYouNoThread" | "onlyYouHere" | "inChannel" | "directMessage";

/** What is private, for the note: "`demo/secret` is private", "this list holds 2 private repositories". */
function whatIsPrivate(privacy: AnswerPrivacy): string {
  if (privacy.kind === "repository") {
    const name = quoted(privacy.nameWithOwner);
    return privacy.visibility === "INTERNAL"
      ? `${name} is internal (its enterprise's members only)`
      : `${name} is private`;
  }
  const count = Math.max(1, Math.floor(privacy.privateCount));
  return `this page lists ${count === 1 ? "a private repository" : `${count} private repositories`}`;
}

/**
 * The one line that goes with a private answer and says why it is shown the way it is, as Discord
 * subtext (`-# `). Pure and total: any name gives one short line.
 */
export function privateAnswerNote(privacy: AnswerPrivacy, delivery: PrivateDelivery): string {
  const what = whatIsPrivate(privacy);
  const allow =
    "An admin can allow private answers in this server's channels with `/settings private-answers in-channel:true`.";
  switch (delivery) {
    case "onlyYou":
      return `-# 🔒 Only you can see this: ${what}. ${allow}`;
    case "onlyYouNoThread":
      return `-# 🔒 Only you can see this, so it is here and not in a thread: ${what}. ${allow}`;
    case "onlyYouHere":
      return `-# 🔒 Only you can see this: ${what}.`;
    case "inChannel":
      return `-# 🔒 Private: ${what}. This server's admins allow private answers in its channels.`;
    case "directMessage":
      return `-# 🔒 Private: ${what}. Only you and RepoScout are in this conversation.`;
  }
}
