import {
  ApplicationCommandType,
  type RESTPostAPIContextMenuApplicationCommandsJSONBody,
} from "discord-api-types/v10";
import { NoFileLinkError } from "../errors.js";
import { formatThreadSummary, threadName } from "../format/error.js";
import { quoted } from "../format/errorWords.js";
import { fitMessage, LIMITS } from "../format/limits.js";
import { emptyMessage, type FormattedMessage } from "../format/message.js";
import {
  fileLinksOf,
  linkHostsOf,
  MAX_MENU_LINKS,
  type FileLink,
  type MessageLinks,
} from "../input/messageLinks.js";
import {
  TARGET_MESSAGE_CONTENT,
  TARGET_MESSAGE_EMBED_LINKS,
  type CommandAnswer,
  type CommandModule,
  type CommandRequest,
  type RawOptions,
} from "./commandModule.js";
import { EVERYWHERE } from "./commonOptions.js";
import { errorSituationOf, sentenceFor } from "./core/errorReply.js";
import type { Services } from "./services.js";
import { withFields } from "../withFields.js";

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

/**
 * A link's answer, or why it has none; `subject` names the link (`owner/name path`) in a thread's
 * name and a failure line.
 */
export type LinkOutcome = { subject: string; answer: CommandAnswer } | { subject: string; error: unknown };

/** `owner/name path` of a link, as a thread's name and a failure line show it. */
function subjectOf(link: FileLink): string {
  const { repo, path } = link.argument;
  return `${repo.owner}/${repo.name} ${path ?? ""}`.trim();
}

/** A link's outcome with its place in the message (the number a failure line names). */
type Numbered = LinkOutcome & { number: number };

/**
 * Answers of several links in one message: their embeds side by side, each cut to its share of the
 * 6,000 characters (its whole lines attached when cut), a line per link without an answer, a line
 * for links past the fifth. The Previous / Next buttons of a single answer are left out: a press
 * would replace every answer of the message with one.
 */
function combine(
  outcomes: readonly Numbered[],
  notes: readonly string[],
  request: CommandRequest,
  services: Services,
  commandName: string,
): CommandAnswer {
  const message: FormattedMessage = emptyMessage();
  const lines: string[] = [];
  const situation = errorSituationOf(services.config, request.guildId);
  let privacy: CommandAnswer["privacy"];
  for (const outcome of outcomes) {
    if ("answer" in outcome) {
      message.embeds.push(...outcome.answer.message.embeds);
      message.files.push(...outcome.answer.message.files);
      privacy ??= outcome.answer.privacy;
    } else {
      const sentence = sentenceFor(outcome.error, request.logger, situation);
      lines.push(`⚠️ Link ${outcome.number}, ${quoted(outcome.subject)}: ${sentence}`);
    }
  }
  lines.push(...notes);
  if (lines.length > 0) message.content = lines.join("\n");
  const subjects = outcomes.filter((outcome) => "answer" in outcome).map((outcome) => outcome.subject);
  return {
    message: fitMessage(message),
    threadName: threadName(commandName, subjects.join(", ")),
    summary: formatThreadSummary(commandName, subjects.join(", ")),
    ...(privacy ? { privacy } : {}),
  };
}

/**
 * The reply to a message with several links (`skipped`: how many past the fifth). Answers from public and from private repositories go
 * apart: the public ones (and the lines of links without an answer) in the reply everyone may
 * read, the private ones beside it by the private-code rule (`privateRest`), so a private link
 * never takes the public answers out of the channel, nor a public link the private code into it.
 */
export function severalLinks(
  outcomes: readonly LinkOutcome[],
  skipped: number,
  request: CommandRequest,
  services: Services,
  commandName: string,
): CommandAnswer {
  const numbered: Numbered[] = outcomes.map((outcome, index) =>
    Object.assign({}, outcome, { number: index + 1 }),
  );
  const notes =
    skipped > 0
      ? [
          `-# ${skipped === 1 ? "1 more link" : `${skipped} more links`} of that message ${skipped === 1 ? "has" : "have"} no answer: a menu answers at most ${MAX_MENU_LINKS}.`,
        ]
      : [];
  const isPrivate = (outcome: Numbered) => "answer" in outcome && outcome.answer.privacy !== undefined;
  const privateOnes = numbered.filter(isPrivate);
  const publicOnes = numbered.filter((outcome) => !isPrivate(outcome));
  if (privateOnes.length === 0 || !publicOnes.some((outcome) => "answer" in outcome)) {
    return combine(numbered, notes, request, services, commandName);
  }
  return withFields(combine(publicOnes, notes, request, services, commandName), {
    privateRest: combine(privateOnes, [], request, services, commandName),
  });
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
  const argsFor = (link: FileLink, services: Services, embedBudget?: number): Args & LinkArgs =>
    Object.assign(
      {},
      command.parse({ repo: link.url }, services),
      options.wholeIfSmall ? { wholeIfSmall: true } : {},
      embedBudget !== undefined ? { embedBudget } : {},
    );
  return {
    data,
    // Undefined: the server's thread setting decides (a menu has no `thread` option).
    threadAsked: () => undefined,
    parse(raw: RawOptions, services) {
      const hosts = linkHostsOf(services.config.github.webUrl);
      const textOf = (name: string) => (typeof raw[name] === "string" ? (raw[name] as string) : "");
      // The links people wrote; failing those, the links of the message's embeds (an answer's own
      // file link at its commit). Not both: Discord's preview of a link repeats it in an embed.
      let links = fileLinksOf(textOf(TARGET_MESSAGE_CONTENT), hosts);
      if (links.files.length === 0) {
        const inEmbeds = fileLinksOf(textOf(TARGET_MESSAGE_EMBED_LINKS), hosts);
        links = Object.assign(
          {},
          inEmbeds,
          { notFile: links.notFile || inEmbeds.notFile },
          links.otherHost !== undefined ? { otherHost: links.otherHost } : {},
        );
      }
      if (links.files.length === 0) throw new NoFileLinkError(links.otherHost, links.notFile);
      return links;
    },
    async execute(links, request, services) {
      // Links are skipped only past the fifth: a single link is the whole message.
      const [only] = links.files;
      if (only && links.files.length === 1)
        return command.execute(argsFor(only, services), request, services);
      const budget = Math.floor(LIMITS.embedTotal / links.files.length);
      const outcomes = await Promise.all(
        links.files.map(async (link): Promise<LinkOutcome> => {
          try {
            return {
              subject: subjectOf(link),
              answer: await command.execute(argsFor(link, services, budget), request, services),
            };
          } catch (error) {
            return { subject: subjectOf(link), error };
          }
        }),
      );
      const answered = outcomes.filter((outcome) => "answer" in outcome);
      if (answered.length === 0) throw (outcomes[0] as { error: unknown }).error;
      return severalLinks(outcomes, links.skipped, request, services, command.data.name);
    },
  };
}
