/**
 * Renders a result as HTML and screenshots it in headless Chromium:
 *   npx tsx reports/screenshot.ts RESULT.json OUT.png
 * With "--sample" in place of RESULT.json it uses the built-in sample result.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { launchChromium } from "./browser.ts";
import { sampleResult } from "./fixtures/sample-result.ts";
import { htmlReporter } from "./html.ts";
import { parseResult } from "./result.ts";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  process.stderr.write("usage: npx tsx reports/screenshot.ts RESULT.json|--sample OUT.png\n");
  process.exit(2);
}
const result = input === "--sample" ? sampleResult() : parseResult(readFileSync(input, "utf8"));
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  await page.setContent(htmlReporter.render(result), { waitUntil: "load" });
  writeFileSync(output, await page.screenshot({ fullPage: true, type: "png" }));
  process.stdout.write(`wrote ${output}\n`);
} finally {
  await browser.close();
}
