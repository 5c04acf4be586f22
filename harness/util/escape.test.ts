import { describe, expect, it } from "vitest";
import { escapeMarkdownInline, escapeTerminal } from "./escape.ts";

describe("terminal text", () => {
  it("shows ESC, NUL, newlines, C1 controls and bidi overrides as escapes, on one line", () => {
    expect(escapeTerminal("red \u001b[31mtext\u001b[0m")).toBe("red \\u001b[31mtext\\u001b[0m");
    expect(escapeTerminal("a\u0000b\nc\td\re\u007f\u009b")).toBe("a\\u0000b\\nc\\td\\re\\u007f\\u009b");
    expect(escapeTerminal("admin\u202e\u2066x")).toBe("admin\\u202e\\u2066x");
    expect(escapeTerminal("plain — ünïcödé 名前")).toBe("plain — ünïcödé 名前");
  });
});

describe("Markdown text", () => {
  it("cannot open a heading, raw HTML, a table cell, a link or emphasis", () => {
    const name = "evil\n## Heading\n<img src=x onerror=alert(1)>|cell|[link](http://x) *b* `c` ~s~ !x";
    const escaped = escapeMarkdownInline(name);
    expect(escaped).not.toMatch(/[\r\n]/);
    expect(escaped).not.toMatch(/<|>/);
    expect(escaped).toBe(
      "evil \\#\\# Heading &lt;img src=x onerror=alert(1)&gt;\\|cell\\|\\[link\\](http://x) \\*b\\* \\`c\\` \\~s\\~ \\!x",
    );
    expect(escapeMarkdownInline("a\u001bb\u2028c")).toBe("a\\u001bb c");
  });
});
