import { describe, expect, it } from "vitest";
import { HOSTILE_TEXT, sampleResult } from "../harness/result/sample-result.ts";
import { escapeHtml } from "./html-escape.ts";
import { htmlReporter } from "./html.ts";

const html = htmlReporter.render(sampleResult());

describe("html reporter (markup)", () => {
  it("is one file: no script, no external stylesheet, font, image or frame", () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<object|<embed|@import|url\(/i);
    expect(html).not.toMatch(/<[a-z][^>]*\bsrc\s*=/i);
    const links = [...html.matchAll(/\bhref\s*=\s*"([^"]*)"/gi)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !link.startsWith("#"))).toEqual([]);
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

  it("starts with the at-a-glance table, one row per engine, every cell linking to an element of the page", () => {
    const sections = [...html.matchAll(/<section id="([^"]+)"/g)].map((match) => match[1]);
    expect(sections[0]).toBe("at-a-glance");
    const glance = html.slice(html.indexOf('<table class="glance">'), html.indexOf("</table>", html.indexOf('<table class="glance">')));
    expect([...glance.matchAll(/<th scope="row">([^<]+)<\/th>/g)].map((match) => match[1])).toEqual(["compressor", "lcm", "truncate"]);
    const ids = new Set([...html.matchAll(/\bid="([^"]+)"/g)].map((match) => match[1]));
    const targets = [...glance.matchAll(/href="#([^"]+)"/g)].map((match) => match[1]);
    expect(targets.length).toBeGreaterThan(30);
    expect(targets.filter((target) => !ids.has(target))).toEqual([]);
    expect(glance).toContain(">100.0 % (lcm_grep)</a>");
  });

  it("flags a noisy figure in its cell, with the reason as its title and under the table", () => {
    const result = sampleResult();
    const overhead = result.benchmarks.find((suite) => suite.suite === "overhead")!;
    if (overhead.suite === "overhead") overhead.variants.find((v) => v.variant === "engine:lcm")!.unreliable = "the machine was noisy";
    const rendered = htmlReporter.render(result);
    expect(rendered).toMatch(/<td class="noisy" title="the machine was noisy"><a href="#table-overhead">[^<]+<\/a> <span class="tag noisy">noisy<\/span><\/td>/);
    expect(rendered).toContain("(noisy) lcm (Assembly ÷ no engine (500 msgs)): the machine was noisy");
  });

  it("shows the checks where engines differ, says the others pass, and folds every check into a details element", () => {
    expect(html).toContain("<caption>Checks where the engines differ</caption>");
    expect(html).toContain('<p class="uniform">All other 3 checks pass for all engines.</p>');
    const differing = html.slice(html.indexOf('<table class="matrix differing">'), html.indexOf("</table>", html.indexOf('<table class="matrix differing">')));
    expect(differing).not.toContain("ABC-1/name-attribute");
    expect(html).toMatch(/<details><summary>Every check \(9\)<\/summary><table class="matrix full">/);
  });

  it("puts the store and host figures in a harness section, apart from the engines' tables", () => {
    const performance = html.slice(html.indexOf('<section id="performance">'), html.indexOf('<section id="harness"'));
    const harness = html.slice(html.indexOf('<section id="harness"'));
    expect(performance).not.toMatch(/Session store|host&#39;s share/);
    expect(harness).toContain('id="table-store"');
    expect(harness).toContain('id="table-host-share"');
    expect(harness).toContain('id="table-harness-goals"');
  });

  it("says under a chart of a noisy run that its points can jump, and nothing under a quiet one", () => {
    expect(html).not.toContain("Measured on a noisy machine");
    const result = sampleResult();
    const throughput = result.benchmarks.find((suite) => suite.suite === "throughput")!;
    throughput.noise = { calibrationSpread: 0.31, limit: 0.05, samples: 40, noisy: true };
    const rendered = htmlReporter.render(result);
    const figure = rendered.slice(rendered.indexOf('<svg class="chart" data-chart="throughput"'), rendered.indexOf("</figure>", rendered.indexOf('data-chart="throughput"')));
    expect(figure).toContain('<p class="note warning">Measured on a noisy machine: identical calibration work varied by 31.0 % (limit 5.0 %), so points can jump');
  });
});
