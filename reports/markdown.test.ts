import { describe, expect, it } from "vitest";
import { sampleResult } from "../harness/result/sample-result.ts";
import { codeBlock, inlineText, markdownReporter } from "./markdown.ts";

const result = sampleResult();
const markdown = markdownReporter.render(result);

/** Cells of a GFM table row: split on pipes that are not escaped. */
const cells = (row: string) => row.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim());

function tableAfter(heading: string): string[][] {
  const lines = markdown.split("\n");
  const at = lines.indexOf(heading);
  if (at < 0) throw new Error(`no heading ${heading}`);
  const start = lines.findIndex((line, index) => index > at && line.startsWith("|"));
  const rows: string[][] = [];
  for (let at = start; lines[at]?.startsWith("|"); at += 1) rows.push(cells(lines[at]!));
  return rows;
}

/** The document with fenced code blocks removed: what GitHub would treat as markup. */
const outsideCode = markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, "");

describe("markdown reporter", () => {
  it("renders the compliance matrix checks × engines with the OpenTelemetry legend", () => {
    const rows = tableAfter("## Compliance");
    expect(rows[0]).toEqual(["Check", "Level", "compressor 1.0.0", "lcm 0.4.2", "truncate 0.1.0"]);
    const row = (id: string) => rows.find((cells) => cells[0]!.startsWith(inlineText(id)))!;
    expect(row("CMP-2/orphaned-result").slice(2)).toEqual(["+", "-", "+"]);
    expect(row("SEL-7/return-shape").slice(2)).toEqual(["+", "+", "N/A"]);
    expect(row("CACHE-2/stable-prefix").slice(2)).toEqual(["+", "+", ""]);
    expect(markdown).toContain("Legend: `+` pass, `-` fail, `N/A` not applicable (skipped), blank unknown.");
  });

  it("keeps every table row as wide as its header", () => {
    for (const heading of ["## At a glance", "## Compliance", "### Compression throughput", "### Goals of the harness"]) {
      const rows = tableAfter(heading);
      expect(rows.length).toBeGreaterThan(2);
      for (const row of rows) expect(row).toHaveLength(rows[0]!.length);
    }
  });

  it("shows transcript markup as text: escaped outside code blocks", () => {
    expect(outsideCode).not.toMatch(/<script|<img/);
    expect(outsideCode).toContain("&lt;script&gt;alert(\"xss\")&lt;/script&gt;");
    expect(markdown).toContain("<details><summary>Evidence</summary>");
  });

  it("fences code so no backtick run inside can close it", () => {
    expect(codeBlock("a ```` b")).toBe("`````\na ```` b\n`````");
  });

  it("renders the performance tables", () => {
    expect(markdown).toContain("## Performance");
    expect(tableAfter("### Prompt-cache stability (long-chat-40, tool-heavy-12)")[2]).toEqual(["compressor", "40", "77.7 %", "88.0 %", "10", "0"]);
  });

  it("starts with the at-a-glance table, each header a link to a table that exists", () => {
    expect(markdown.split("\n## ")[1]!.startsWith("At a glance")).toBe(true);
    const rows = tableAfter("## At a glance");
    expect(rows.slice(2).map((row) => row[0])).toEqual(["**compressor**", "**lcm**", "**truncate**"]);
    const targets = rows[0]!.slice(1).map((header) => /\]\(#([^)]+)\)$/.exec(header)?.[1]);
    for (const target of targets) expect(markdown).toContain(`<a id="${target}"></a>`);
    expect(rows[3]).toContain("100.0 % (lcm\\_grep)");
  });

  it("shows only the checks where engines differ, says the others pass, and keeps every check folded away", () => {
    const differing = tableAfter("Where the engines differ:");
    expect(differing.slice(2).map((row) => row[0]!.split(" ")[0])).not.toContain("ABC-1/name-attribute");
    expect(markdown).toContain("All other 3 checks pass for all engines.");
    expect(markdown).toContain("<details><summary>Every check</summary>");
  });

  it("puts the store and host figures in a harness section after the engines' tables", () => {
    const harness = markdown.slice(markdown.indexOf("## Harness"));
    expect(markdown.indexOf("## Harness")).toBeGreaterThan(markdown.indexOf("## Performance"));
    expect(harness).toContain("### Session store");
    expect(harness).toContain("### The host's share of a compaction pass");
    expect(markdown.slice(0, markdown.indexOf("## Harness"))).not.toMatch(/Session store|host's share/);
  });
});
