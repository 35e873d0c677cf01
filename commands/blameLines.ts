import { messageMenu } from "../src/bot/messageMenus.js";
import { command as blame } from "./blame.js";

/** Message menu `Blame lines`: the blame of each GitHub file link's lines, as `/blame` answers it. */
export const command = messageMenu({ name: "Blame lines", command: blame });
