import { describe, expect, it } from "vitest";
import { HOSTILE_TEXT, sampleResult } from "./fixtures/sample-result.ts";
import { escapeHtml } from "./html-escape.ts";
import { htmlReporter } from "./html.ts";

const html = htmlReporter.render(sampleResult());

describe("html reporter (markup)", () => {
  it("is one file: no script, no external stylesheet, font, image or frame", () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed|@import|url\(/i);
    expect(html).not.toMatch(/<[a-z][^>]*\b(src|href)\s*=/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'`);
  });

  it("escapes every piece of result text, including engine names", () => {
    const result = sampleResult();
    result.certifications[0]!.engine.name = "<b onmouseover=alert(1)>eng</b>";
    const rendered = htmlReporter.render(result);
    expect(rendered).toContain("&lt;b onmouseover=alert(1)&gt;eng&lt;/b&gt;");
    expect(rendered).not.toContain("<b onmouseover");
    expect(html).toContain(escapeHtml(HOSTILE_TEXT));
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("draws the three charts as inline SVG and is byte-stable", () => {
    for (const chart of ["throughput", "cache", "overhead"]) expect(html).toContain(`<svg class="chart" data-chart="${chart}"`);
    expect(htmlReporter.render(sampleResult())).toBe(html);
  });

  it("leaves out sections with nothing to show", () => {
    const onlyBench = htmlReporter.render(sampleResult({ withCertifications: false }));
    expect(onlyBench).not.toContain('id="compliance"');
    const onlyCertify = htmlReporter.render(sampleResult({ withBenchmarks: false }));
    expect(onlyCertify).not.toContain('id="charts"');
    expect(onlyCertify).toContain('id="details"');
  });
});
