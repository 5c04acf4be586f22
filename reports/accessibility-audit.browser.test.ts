/** The accessibility audit itself, on small pages that pass and fail each rule, in headless Chromium. */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_SCRIPT, type AccessibilityViolation } from "./accessibility-audit.ts";
import { browserSkipReason, launchChromium } from "./browser.ts";

const skipReason = browserSkipReason();
// Visible in every run that skips: the line says how to turn the browser tests on.
if (skipReason) console.warn(`SKIPPED the accessibility audit's browser tests: ${skipReason} (with CI=true a missing browser fails instead)`);

let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (skipReason) return;
  browser = await launchChromium();
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
});

async function auditOf(body: string, head = "<title>t</title>"): Promise<AccessibilityViolation[]> {
  await page.setContent(`<!doctype html><html lang="en"><head>${head}</head><body><h1>Report</h1>${body}</body></html>`);
  return (await page.evaluate(AUDIT_SCRIPT)) as AccessibilityViolation[];
}
const rules = (violations: AccessibilityViolation[]) => violations.map((v) => v.rule);

describe.skipIf(skipReason !== null)(skipReason ? `the accessibility audit (skipped: ${skipReason})` : "the accessibility audit", () => {
  it("passes a page that does everything right", async () => {
    const page = `
      <h2 id="a">Tables</h2>
      <table><caption>Figures</caption><tr><th scope="col">Engine</th><th scope="col">Ratio</th></tr><tr><th scope="row">lcm</th><td>2×</td></tr></table>
      <svg role="img" aria-label="Chart"><title>Chart</title><desc>lcm is twice as slow</desc><text x="1" y="10" style="fill:#424a53">tick</text></svg>
      <p><a href="#a">back to the tables</a> <span style="color:#57606a">a note</span></p>`;
    expect(await auditOf(page)).toEqual([]);
  });

  it("finds low contrast on the text's real background, in HTML and in SVG", async () => {
    const violations = await auditOf(`
      <p style="color:#999">grey on white</p>
      <div style="background:#0072B2"><span style="color:#1b1f24">dark on blue</span></div>
      <p style="color:#ccc;font-size:32px">large but too light</p>
      <svg role="img"><title>c</title><desc>d</desc><text x="1" y="10" style="fill:#bbb">pale tick</text></svg>`);
    expect(violations.filter((v) => v.rule === "contrast").map((v) => v.detail.split(":")[0])).toEqual(['"grey on white"', '"dark on blue"', '"large but too light"', '"pale tick"']);
  });

  it("finds tables without a caption, header cells or scopes", async () => {
    expect(rules(await auditOf(`<table><tr><td>a</td></tr></table>`))).toEqual(["table-name", "table-headers"]);
    expect(rules(await auditOf(`<table><caption>x</caption><tr><th>a</th></tr></table>`))).toEqual(["table-headers"]);
  });

  it("finds charts without role, title or text alternative, and images without alt", async () => {
    expect(rules(await auditOf(`<svg><text x="1" y="10">x</text></svg><img src="data:,">`)).sort()).toEqual(["chart-description", "chart-role", "chart-title", "image-alt"]);
  });

  it("finds links without text or target, skipped heading levels, a missing language and duplicate ids", async () => {
    expect(rules(await auditOf(`<a href="#nowhere">go</a><a href="#x"></a><h3 id="x">deep</h3><p id="x">again</p>`)).sort()).toEqual(["duplicate-id", "heading-order", "link-name", "link-target"]);
    await page.setContent(`<!doctype html><html><body><p>no title, no h1</p></body></html>`);
    expect(rules((await page.evaluate(AUDIT_SCRIPT)) as AccessibilityViolation[]).sort()).toEqual(["document-language", "document-title", "heading-order"]);
  });
});
