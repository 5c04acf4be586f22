/** The HTML report in a real browser: headless Chromium through playwright-core. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_SCRIPT, type AccessibilityViolation } from "./accessibility-audit.ts";
import { browserSkipReason, launchChromium } from "./browser.ts";
import { HOSTILE_TEXT, sampleResult } from "../harness/result/sample-result.ts";
import { htmlReporter } from "./html.ts";

const skipReason = browserSkipReason();
// Visible in every run that skips: the line says how to turn the browser tests on.
if (skipReason) console.warn(`SKIPPED the HTML report's browser tests: ${skipReason} (with CI=true a missing browser fails instead)`);

let browser: Browser;
let page: Page;
const requests: string[] = [];
const dialogs: string[] = [];
let fileUrl: string;

beforeAll(async () => {
  if (skipReason) return;
  const directory = mkdtempSync(join(tmpdir(), "ctxbench-html-"));
  const file = join(directory, "report.html");
  writeFileSync(file, htmlReporter.render(sampleResult()));
  fileUrl = pathToFileURL(file).href;
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on("request", (request) => requests.push(request.url()));
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto(fileUrl, { waitUntil: "load" });
});

afterAll(async () => {
  await browser?.close();
});

/** Size of the drawn shapes of one chart, measured by the browser's layout. */
async function shapesOf(chart: string, selector: string): Promise<{ width: number; height: number; length: number }[]> {
  return page.evaluate(`[...document.querySelectorAll('svg[data-chart="${chart}"] ${selector}')].map((shape) => {
    const box = shape.getBBox();
    return { width: box.width, height: box.height, length: typeof shape.getTotalLength === "function" ? shape.getTotalLength() : 0 };
  })`);
}

describe.skipIf(skipReason !== null)(skipReason ? `html report in headless Chromium (skipped: ${skipReason})` : "html report in headless Chromium", () => {
  it("loads no resource besides the document itself", () => {
    expect(requests).toEqual([fileUrl]);
  });

  it("draws a line per engine in the throughput and cache charts", async () => {
    for (const chart of ["throughput", "cache"]) {
      const lines = await shapesOf(chart, "path.series");
      expect(lines).toHaveLength(3);
      for (const line of lines) {
        expect(line.length).toBeGreaterThan(100);
        expect(line.width).toBeGreaterThan(100);
      }
    }
  });

  it("draws a bar with a whisker per overhead variant", async () => {
    const bars = await shapesOf("overhead", "rect.bar");
    expect(bars).toHaveLength(6);
    for (const bar of bars) expect(bar.width * bar.height).toBeGreaterThan(0);
    expect(await shapesOf("overhead", "path.whisker")).toHaveLength(5);
    const rendered = await page.evaluate(`[...document.querySelectorAll("svg.chart")].map((svg) => { const r = svg.getBoundingClientRect(); return r.width * r.height; })`);
    expect((rendered as number[]).every((area) => area > 10_000)).toBe(true);
  });

  it("shows transcript markup as text and runs none of it", async () => {
    const text = (await page.evaluate("document.body.textContent")) as string;
    expect(text).toContain(`<script>alert("xss")</script>`);
    expect(text).toContain(`<img src=x onerror="alert(2)">`);
    expect(text).toContain(HOSTILE_TEXT.slice(0, 40));
    const injected = await page.evaluate(`({
      scripts: document.querySelectorAll("script").length,
      images: document.querySelectorAll("img").length,
      handlers: [...document.querySelectorAll("*")].filter((node) => [...node.attributes].some((a) => a.name.startsWith("on"))).length,
    })`);
    expect(injected).toEqual({ scripts: 0, images: 0, handlers: 0 });
    expect(dialogs).toEqual([]);
  });

  it("shows the compliance matrix with the legend's symbols", async () => {
    const row = await page.evaluate(`[...document.querySelectorAll("table.matrix tr")].find((tr) => tr.textContent.includes("CMP-2/orphaned-result"))?.querySelectorAll("td.cell").length`);
    expect(row).toBe(3);
    const cells = await page.evaluate(`[...document.querySelectorAll("table.matrix td.cell")].map((td) => td.textContent)`);
    expect(new Set(cells as string[])).toEqual(new Set(["+", "-", "N/A", ""]));
  });

  it("passes the accessibility audit: contrast, table names and header scopes, chart titles and text alternatives, links, headings", async () => {
    expect((await page.evaluate(AUDIT_SCRIPT)) as AccessibilityViolation[]).toEqual([]);
  });

  it("passes it too with a noisy figure flagged in the at-a-glance table, and when printed", async () => {
    const result = sampleResult();
    const overhead = result.benchmarks.find((suite) => suite.suite === "overhead")!;
    if (overhead.suite === "overhead") overhead.variants.find((v) => v.variant === "engine:lcm")!.unreliable = "the machine was noisy";
    const other = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    try {
      await other.setContent(htmlReporter.render(result), { waitUntil: "load" });
      expect(await other.locator("table.glance td.noisy").count()).toBe(1);
      expect((await other.evaluate(AUDIT_SCRIPT)) as AccessibilityViolation[]).toEqual([]);
      await other.emulateMedia({ media: "print" });
      expect((await other.evaluate(AUDIT_SCRIPT)) as AccessibilityViolation[]).toEqual([]);
      const glanceWidth = await other.evaluate(`document.querySelector("table.glance").getBoundingClientRect().width`);
      expect(glanceWidth).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });

  it("shows the at-a-glance table first, its links landing on the tables they name", async () => {
    const first = await page.evaluate(`document.querySelector("section").id`);
    expect(first).toBe("at-a-glance");
    const targets = (await page.evaluate(`[...document.querySelectorAll("table.glance a")].map((a) => a.getAttribute("href"))`)) as string[];
    const missing = (await page.evaluate(`${JSON.stringify([...new Set(targets)])}.filter((href) => !document.getElementById(href.slice(1)))`)) as string[];
    expect(missing).toEqual([]);
  });
});
