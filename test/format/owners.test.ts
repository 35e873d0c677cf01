import { describe, expect, it } from "vitest";
import type { OwnersAnswer } from "../../src/answers/ownershipAnswers.js";
import { formatHistory } from "../../src/format/history.js";
import { formatOwners } from "../../src/format/owners.js";
import { ownersChartSvg, xmlText } from "../../src/format/ownersChart.js";
import type { BlamedLines, GitAuthor, HistoryPage } from "../../src/github/ownershipTypes.js";
import { ownersReport } from "../../src/owners/ownersReport.js";
import { selectFiles } from "../../src/owners/selectFiles.js";
import { renderPng } from "../../src/owners/renderChart.js";
import { descriptionOf, expectValidMessage } from "./checks.js";
import { FRESH, NOW, PINNED, REPOSITORY } from "./fixtures.js";

const HOSTILE =
  "``` @everyone <@123> </text><script>alert(1)</script> & \"q\" 'a' **x** [y](https://evil.example)\u0000\u0007";

function author(name: string, login: string | null = null): GitAuthor {
  return { name, email: `${name.length}@example.com`, login };
}

function lines(count: number, who: GitAuthor, date = "2025-05-20T12:00:00Z"): BlamedLines {
  return { lines: count, oid: "a".repeat(40), authoredDate: date, author: who };
}

/** An answer for a folder whose files were blamed into `blamed`, with a CODEOWNERS text. */
function answer(blamed: BlamedLines[][], codeowners: string | null = "* @team\n"): OwnersAnswer {
  const files = blamed.map((_, index) => ({ path: `src/f${index}.ts`, size: 100 + index, isBinary: false }));
  const target = {
    kind: "folder" as const,
    files: [...files, { path: "src/logo.png", size: 5, isBinary: true }],
    deeperFolders: [],
  };
  return {
    tree: {
      repository: REPOSITORY,
      commit: PINNED,
      path: "src",
      target,
      codeowners:
        codeowners === null
          ? null
          : { path: ".github/CODEOWNERS", text: codeowners, byteSize: codeowners.length },
      recent: blamed
        .flat()
        .map((entry) => ({ oid: entry.oid, authoredDate: entry.authoredDate, author: entry.author })),
      recentTotal: blamed.flat().length,
      since: "2024-06-01T00:00:00Z",
    },
    selection: selectFiles("src", target),
    blamed: files.map((file, index) => ({ path: file.path, lines: blamed[index] ?? [] })),
    blamePoints: 1,
  };
}

describe("/owners text", () => {
  it("keeps a hostile author name and a hostile CODEOWNERS owner from pinging or breaking the text", () => {
    const report = ownersReport(
      answer([[lines(30, author(HOSTILE)), lines(10, author("Bob", "bob"))]], `* @team ${"@everyone"}\n`),
      NOW,
    );
    const message = formatOwners(report, { freshness: FRESH, now: NOW, pointsSpent: 2 });
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("**bob** · 10 lines · 25%");
    expect(descriptionOf(message)).toContain("**Bus factor: 1**");
  });

  it("stays within Discord's limits with hundreds of long author names", () => {
    const many = Array.from({ length: 300 }, (_, index) =>
      lines(index + 1, author(`${"Long Name ".repeat(20)}${index}`)),
    );
    const message = formatOwners(ownersReport(answer([many]), NOW), {
      freshness: FRESH,
      now: NOW,
      pointsSpent: 0,
    });
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("… 290 more authors");
  });

  it("says when there is no CODEOWNERS file and when a file's lines were not counted", () => {
    const message = formatOwners(ownersReport(answer([[]], null), NOW), {
      freshness: FRESH,
      now: NOW,
      pointsSpent: 0,
    });
    expect(descriptionOf(message)).toContain("**CODEOWNERS:** none");
    expect(descriptionOf(message)).toContain("No lines to count here");
    expect(descriptionOf(message)).toContain("1 binary");
  });
});

describe("/owners chart", () => {
  it("escapes a hostile author name so the SVG stays well-formed, and renders it", () => {
    const name = "</text><script>&\"'\u0007";
    const report = ownersReport(
      answer([[lines(5, author(name)), lines(2, author(HOSTILE)), lines(1, author("Ann", "ann"))]]),
      NOW,
    );
    const chart = ownersChartSvg(report, NOW);
    expect(chart.svg).not.toContain("<script>");
    expect(chart.svg).toContain("&lt;/text&gt;&lt;script&gt;&amp;&quot;&#39;</text>");
    expect([...chart.svg].some((char) => char.charCodeAt(0) < 0x09)).toBe(false);
    const png = renderPng(chart.svg);
    expect(png.readUInt32BE(16)).toBe(chart.width);
    expect(png.readUInt32BE(20)).toBe(chart.height);
    expect(chart.alt).toContain("ann 13%");
  });

  it("draws the eight largest authors and the others together", () => {
    const many = Array.from({ length: 12 }, (_, index) => lines(20 - index, author(`Person ${index}`)));
    const chart = ownersChartSvg(ownersReport(answer([many]), NOW), NOW);
    expect(chart.alt).toContain("4 others");
    expect(chart.svg.match(/<text x="16" y="\d+" font-size="15"/g)).toHaveLength(9);
  });

  it("makes any text safe inside XML", () => {
    expect(xmlText(`a<b>&"'\u0001\ud800`)).toBe("a&lt;b&gt;&amp;&quot;&#39;\ufffd");
  });
});

describe("/history text", () => {
  it("keeps hostile headlines and author names from pinging or breaking the list", () => {
    const page: HistoryPage = {
      repository: REPOSITORY,
      commit: PINNED,
      path: "src/a.ts",
      totalCount: 11,
      hasNextPage: true,
      endCursor: "x",
      commits: Array.from({ length: 10 }, (_, index) => ({
        oid: `${index}`.repeat(40).slice(0, 40),
        abbreviatedOid: `${index}`.repeat(7),
        messageHeadline: `${HOSTILE} ${"long ".repeat(100)}`,
        url: "https://github.com/octo/widgets/commit/x",
        committedDate: "2025-05-01T00:00:00Z",
        authoredDate: "2025-05-01T00:00:00Z",
        additions: 1234,
        deletions: 5,
        author: author(HOSTILE),
      })),
    };
    const message = formatHistory(
      page,
      { repo: "octo/widgets", page: 1, pageSize: 10 },
      { freshness: FRESH, now: NOW, buttons: { next: "history:x" } },
    );
    expectValidMessage(message);
    expect(descriptionOf(message)).toContain("11 commits touched `src/a.ts` · page 1 of 2");
    expect(descriptionOf(message)).toContain("+1,234 −5");
  });
});
