import { describe, expect, it } from "vitest";
import { formatContents, LINES_ON_A_FOLDER } from "../../src/format/contents.js";
import { ZWSP } from "../../src/format/escape.js";
import { resolveLinkTarget } from "../../src/format/symlink.js";
import { NotAFileError } from "../../src/github/errors.js";
import { sentenceOf } from "../sentenceOf.js";
import type { ContentsAnswer, TreeEntry } from "../../src/github/types.js";
import { attachmentText, descriptionOf, expectValidMessage, sentenceProblems } from "./checks.js";
import { FRESH, NOW, PINNED, REPOSITORY } from "./fixtures.js";

const meta = { freshness: FRESH, now: NOW, ref: "main" };

function link(path: string, target: string | null): ContentsAnswer {
  return { kind: "symlink", repository: REPOSITORY, commit: PINNED, path, target };
}

function linkButtons(message: ReturnType<typeof formatContents>) {
  return message.components.flatMap((row) =>
    row.components.map((button) => ({
      label: "label" in button ? button.label : undefined,
      url: "url" in button ? button.url : undefined,
    })),
  );
}

describe("resolveLinkTarget", () => {
  it("reads a target from the link's folder, resolving . and ..", () => {
    expect(resolveLinkTarget("docs/latest.md", "guide/intro.md")).toBe("docs/guide/intro.md");
    expect(resolveLinkTarget("docs/latest", "v2")).toBe("docs/v2");
    expect(resolveLinkTarget("latest", "./docs/v2/")).toBe("docs/v2");
    expect(resolveLinkTarget("a/b/c", "../../x/./y")).toBe("x/y");
  });

  it("says null for a target outside the repository, or none", () => {
    expect(resolveLinkTarget("docs/latest", "/etc/passwd")).toBeNull();
    expect(resolveLinkTarget("docs/latest", "../../outside")).toBeNull();
    expect(resolveLinkTarget("docs/latest", "..")).toBeNull();
    expect(resolveLinkTarget("docs/latest", "")).toBeNull();
  });
});

describe("formatContents on a symbolic link", () => {
  it("says what it points to, the /contents command that shows it, and links the target at the pinned commit", () => {
    const message = formatContents(link("docs/latest.md", "guide/intro.md"), {}, meta);
    expectValidMessage(message);
    const embed = message.embeds[0]!;
    const targetUrl = `${REPOSITORY.url}/blob/${PINNED.oid}/docs/guide/intro.md`;
    expect(embed.title).toBe("🔗 octo/widgets/docs/latest.md");
    expect(embed.url).toBe(`${REPOSITORY.url}/blob/${PINNED.oid}/docs/latest.md`);
    expect(descriptionOf(message).split("\n")).toEqual([
      "`docs/latest.md` is a symbolic link to `guide/intro.md` (`docs/guide/intro.md` in the repository).",
      `To see the target: \`/contents repo:octo/widgets path:docs/guide/intro.md ref:main\`, or open [docs/guide/intro.md](${targetUrl}) on GitHub.`,
    ]);
    expect(descriptionOf(message)).not.toContain("```");
    expect(linkButtons(message)).toEqual([
      { label: "Open on GitHub", url: embed.url },
      { label: "Open the target on GitHub", url: targetUrl },
    ]);
    expect(embed.footer?.text).toBe("fetched now · main · pinned to a1b2c3d");
  });

  it("names a target already written from the root once, and carries the lines asked for into the command", () => {
    const message = formatContents(link("latest", "docs/v2"), { startLine: 3, endLine: 9 }, meta);
    expect(descriptionOf(message)).toMatch(/^`latest` is a symbolic link to `docs\/v2`\.\n/);
    expect(descriptionOf(message)).toContain("`/contents repo:octo/widgets path:docs/v2 ref:main lines:3-9`");
  });

  it("says a target outside the repository is outside, with nothing to open", () => {
    const message = formatContents(link("etc/conf", "/etc/passwd"), {}, meta);
    expectValidMessage(message);
    expect(descriptionOf(message)).toBe(
      "`etc/conf` is a symbolic link to `/etc/passwd`, outside the repository: there is nothing here to show.",
    );
    expect(linkButtons(message).map((button) => button.label)).toEqual(["Open on GitHub"]);
  });

  it("says when GitHub gives no text for the target", () => {
    const message = formatContents(link("odd", null), {}, meta);
    expectValidMessage(message);
    expect(descriptionOf(message)).toMatch(
      /^`odd` is a symbolic link\. GitHub gives its target as binary data/,
    );
  });

  it("quotes a hostile target on one line, where it can neither ping nor restyle the answer", () => {
    const fenced = "``` @everyone <@1>\n[x](https://evil.example) " + "z".repeat(5000);
    const message = formatContents(link("docs/evil", fenced), {}, meta);
    expectValidMessage(message);
    const [first] = descriptionOf(message).split("\n");
    // Backticks could end a code span: such a target is quoted as escaped text instead.
    expect(
      first!.startsWith(
        `\`docs/evil\` is a symbolic link to \\\`\\\`\\\` @${ZWSP}everyone <${ZWSP}@1\\> \\[x\\]`,
      ),
    ).toBe(true);
    expect(descriptionOf(message)).not.toMatch(/\n\[x\]/);

    const plain = formatContents(link("docs/evil", "@everyone <@1> *x*"), {}, meta);
    expectValidMessage(plain);
    expect(descriptionOf(plain)).toMatch(/^`docs\/evil` is a symbolic link to `@everyone <@1> \*x\*`/);
  });
});

describe("formatContents on a folder", () => {
  const entries: TreeEntry[] = [
    { name: "latest.md", path: "docs/latest.md", type: "blob", mode: 0o120000, size: 14, isBinary: false },
    { name: "intro.md", path: "docs/intro.md", type: "blob", mode: 0o100644, size: 40, isBinary: false },
    { name: "guide", path: "docs/guide", type: "tree", mode: 0o40000, size: 0, isBinary: null },
  ];
  const folder: ContentsAnswer = {
    kind: "tree",
    repository: REPOSITORY,
    commit: PINNED,
    path: "docs",
    entries,
  };

  it("lists a symbolic link as a link, not as a file of the target's length", () => {
    expect(descriptionOf(formatContents(folder, {}, meta)).split("\n")).toEqual([
      "1 folder, 1 file, 1 symbolic link.",
      "📁 **guide/**",
      "📄 intro.md · 40 B",
      "🔗 latest.md · symbolic link",
    ]);
  });

  it("says in one line that lines: applies to files, then lists the entries", () => {
    const message = formatContents(folder, { startLine: 10, endLine: 20 }, meta);
    expectValidMessage(message);
    const lines = descriptionOf(message).split("\n");
    expect(lines[0]).toBe("`lines:` applies to files; a folder lists its entries.");
    expect(lines[0]).toBe(LINES_ON_A_FOLDER);
    expect(lines[1]).toBe("1 folder, 1 file, 1 symbolic link.");
    const empty = formatContents({ ...folder, entries: [] }, { startLine: 1, endLine: 1 }, meta);
    expect(descriptionOf(empty)).toBe(`${LINES_ON_A_FOLDER}\nThis folder is empty.`);
    // Without lines: no note.
    expect(descriptionOf(formatContents(folder, {}, meta))).not.toContain("lines:");
  });

  it("keeps the note within the limits of a folder too big to list", () => {
    const many: TreeEntry[] = Array.from({ length: 300 }, (_, index) => ({
      name: `link-${index}-${"n".repeat(90)}`,
      path: `docs/link-${index}`,
      type: "blob",
      mode: 0o120000,
      size: 10,
      isBinary: false,
    }));
    const message = formatContents({ ...folder, entries: many }, { startLine: 1, endLine: 5 }, meta);
    expectValidMessage(message);
    expect(descriptionOf(message).startsWith(LINES_ON_A_FOLDER)).toBe(true);
    expect(attachmentText(message)).toMatch(/^link +link-0-n+$/m);
  });
});

describe("/blame of a symbolic link, as the error a user reads", () => {
  it("points inside the repository to the target's path, and says when it points outside", () => {
    const repo = { owner: "demo", name: "widgets" };
    expect(sentenceOf(new NotAFileError(repo, "docs/latest.md", "symlink", undefined, "../README.md"))).toBe(
      "`docs/latest.md` in `demo/widgets` is a symbolic link to `../README.md`: it has no lines of its own. Blame its target with `path:README.md`.",
    );
    expect(sentenceOf(new NotAFileError(repo, "etc", "symlink", undefined, "/etc/passwd"))).toBe(
      "`etc` in `demo/widgets` is a symbolic link to `/etc/passwd`, outside the repository: there are no lines here to blame.",
    );
  });

  it("keeps a target holding backticks and a line break inside its quote, on one line, pinging no one", () => {
    const repo = { owner: "demo", name: "widgets" };
    const target = "x`\n@everyone `<@1>`.md";
    const sentence = sentenceOf(new NotAFileError(repo, "docs/latest", "symlink", undefined, target));
    expect(sentenceProblems(sentence)).toEqual([]);
    // Backticks could end a code span: both quotes of the target are escaped text instead.
    expect(sentence).toBe(
      `\`docs/latest\` in \`demo/widgets\` is a symbolic link to x\\\` @${ZWSP}everyone \\\`<${ZWSP}@1\\>\\\`.md: it has no lines of its own. Blame its target with path:docs/x\\\` @${ZWSP}everyone \\\`<${ZWSP}@1\\>\\\`.md.`,
    );
  });
});
