import { messageMenu } from "../src/bot/messageMenus.js";
import { command as contents } from "./contents.js";

/**
 * Message menu `Show code`: the lines of each GitHub file link of the message (the whole file when
 * it is small and the link names no lines), as `/contents` answers them.
 */
export const command = messageMenu({ name: "Show code", command: contents, wholeIfSmall: true });
