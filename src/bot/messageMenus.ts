import {
  ApplicationCommandType,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import { NoFileLinkError } from "../errors.js";
import { formatThreadSummary, threadName } from "../format/error.js";
import { quoted } from "../format/errorWords.js";
import { fitMessage, LIMITS } from "../format/limits.js";
import { emptyMessage, type FormattedMessage } from "../format/message.js";
import { fileLinksOf, MAX_MENU_LINKS, type FileLink, type MessageLinks } from "../input/messageLinks.js";
import { webHostsOf } from "../input/repoArgument.js";
import {
  TARGET_MESSAGE_CONTENT,
  type CommandAnswer,
  type CommandModule,
  type CommandRequest,
  type RawOptions,
} from "./commandModule.js";
import { EVERYWHERE } from "./commonOptions.js";
import { errorSituationOf, sentenceFor } from "./core/errorReply.js";
import type { Services } from "./services.js";

/** What the arguments of a command answering a file link may also say, beside its own. */
interface LinkArgs {
  /** The room of its embed when the answer shares the message with others. */
  embedBudget?: number;
  /** Show a small file whole when the link names no lines (`Show code`). */
  wholeIfSmall?: boolean;
}

/** A message menu that answers each GitHub file link of a message as a slash command would. */
export interface MessageMenuOptions<Args extends object> {
  /** The name in the message's Apps menu (`Show code`). */
  name: string;
  /** The slash command each link is answered by, as `/<name> repo:<link>`. */
  command: CommandModule<Args>;
  /** Show a small file whole when a link names no lines. */
  wholeIfSmall?: boolean;
}

/** A link's answer, or why it has none. */
type LinkOutcome = { link: FileLink; answer: CommandAnswer } | { link: FileLink; error: unknown };

/** `owner/name path` of a link, as a thread's name and a failure line show it. */
function subjectOf(link: FileLink): string {
  const { repo, path } = link.argument;
  return `${repo.owner}/${repo.name} ${path ?? ""}`.trim();
}

/**
 * Several links' answers in one message: their embeds side by side, each cut to its share of the
 * 6,000 characters (and its whole lines attached when cut), a line per link that has no answer, a
 * line for links past the fifth. The Previous / Next buttons of a single answer are left out: a
 * press would replace every answer of the message with one. Private when any answer is.
 */
function combine(
  outcomes: readonly LinkOutcome[],
  links: MessageLinks,
  request: CommandRequest,
  services: Services,
  commandName: string,
): CommandAnswer {
  const message: FormattedMessage = emptyMessage();
  const lines: string[] = [];
  const situation = errorSituationOf(services.config, request.guildId);
  let privacy: CommandAnswer["privacy"];
  outcomes.forEach((outcome, index) => {
    if ("answer" in outcome) {
      message.embeds.push(...outcome.answer.message.embeds);
      message.files.push(...outcome.answer.message.files);
      privacy ??= outcome.answer.privacy;
    } else {
      const sentence = sentenceFor(outcome.error, request.logger, situation);
      lines.push(`⚠️ Link ${index + 1}, ${quoted(subjectOf(outcome.link))}: ${sentence}`);
    }
  });
  if (links.skipped > 0) {
    lines.push(
      `-# ${links.skipped === 1 ? "1 more link" : `${links.skipped} more links`} of that message ${links.skipped === 1 ? "has" : "have"} no answer: a menu answers at most ${MAX_MENU_LINKS}.`,
    );
  }
  if (lines.length > 0) message.content = lines.join("\n");
  const subjects = outcomes
    .filter((outcome) => "answer" in outcome)
    .map((outcome) => subjectOf(outcome.link));
  return {
    message: fitMessage(message),
    threadName: threadName(commandName, subjects.join(", ")),
    summary: formatThreadSummary(commandName, subjects.join(", ")),
    ...(privacy ? { privacy } : {}),
  };
}

/**
 * A message command (SPEC section 1) answering the GitHub file links of the message it is used on,
 * each as `/<command> repo:<link>` would: one link, exactly that answer (buttons included); several,
 * one answer per link (at most 5) in one reply. A message without such a link is refused before
 * anything is asked of GitHub. Threads, private code and tokens follow the rules of every answer:
 * the core delivers it as it delivers the command's own.
 */
export function messageMenu<Args extends object>(
  options: MessageMenuOptions<Args>,
): CommandModule<MessageLinks> {
  const { command } = options;
  const data: RESTPostAPIContextMenuApplicationCommandsJSONBody = {
    type: ApplicationCommandType.Message,
    name: options.name,
    ...EVERYWHERE,
  };
  const argsFor = (link: FileLink, services: Services, embedBudget?: number): Args & LinkArgs => ({
    ...command.parse({ repo: link.url }, services),
    ...(options.wholeIfSmall ? { wholeIfSmall: true } : {}),
    ...(embedBudget !== undefined ? { embedBudget } : {}),
  });
  return {
    data,
    // Undefined: the server's thread setting decides (a menu has no `thread` option).
    threadAsked: () => undefined,
    parse(raw: RawOptions, services) {
      const content = raw[TARGET_MESSAGE_CONTENT];
      const links = fileLinksOf(
        typeof content === "string" ? content : "",
        webHostsOf(services.config.github.webUrl),
      );
      if (links.files.length === 0) throw new NoFileLinkError(links.otherHost, links.notFile);
      return links;
    },
    async execute(links, request, services) {
      const [only] = links.files;
      if (links.files.length === 1 && links.skipped === 0 && only) {
        return command.execute(argsFor(only, services), request, services);
      }
      const budget = Math.floor(LIMITS.embedTotal / links.files.length);
      const outcomes = await Promise.all(
        links.files.map(async (link): Promise<LinkOutcome> => {
          try {
            return {
              link,
              answer: await command.execute(argsFor(link, services, budget), request, services),
            };
          } catch (error) {
            return { link, error };
          }
        }),
      );
      const answered = outcomes.filter((outcome) => "answer" in outcome);
      if (answered.length === 0) throw (outcomes[0] as { error: unknown }).error;
      return combine(outcomes, links, request, services, command.data.name);
    },
  };
}
