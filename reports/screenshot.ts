/**
 * Renders a result as HTML and screenshots it in headless Chromium:
 *   npx tsx reports/screenshot.ts RESULT.json OUT.png
 * With "--sample" in place of RESULT.json it uses the built-in sample result, titled as such.
 * The picture is the top of the page (run info, compliance, the first charts); add --full for all
 * of it, or --charts for one page height starting at the first chart.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { launchChromium } from "./browser.ts";
import { sampleResult } from "../harness/result/sample-result.ts";
import { htmlReporter } from "./html.ts";
import { parseResult } from "../harness/result/index.ts";

const args = process.argv.slice(2);
const full = args.includes("--full");
const charts = args.includes("--charts");
const [input, output] = args.filter((arg) => arg !== "--full" && arg !== "--charts");
if (!input || !output) {
  process.stderr.write("usage: npx tsx reports/screenshot.ts RESULT.json|--sample OUT.png [--full | --charts]\n");
  process.exit(2);
}
const sample = input === "--sample";
const result = sample ? sampleResult() : parseResult(readFileSync(input, "utf8"));
const title = sample ? "ctxbench report — sample data, not measurements" : "ctxbench report";
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1600 }, deviceScaleFactor: 1 });
  await page.setContent(htmlReporter.render(result, { title }), { waitUntil: "load" });
  const chartTop = charts ? await page.locator("[data-chart]").first().evaluate((chart) => (chart.closest("section") ?? chart).getBoundingClientRect().top) : 0;
  const clip = charts ? { clip: { x: 0, y: Math.max(0, chartTop - 16), width: 1200, height: 1600 } } : {};
  writeFileSync(output, await page.screenshot({ fullPage: full || charts, type: "png", ...clip }));
  process.stdout.write(`wrote ${output}\n`);
} finally {
  await browser.close();
}
