/** Launching the system's headless Chromium for the HTML report's browser test and screenshot. */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.CTXBENCH_CHROMIUM ?? "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`headless Chromium not found at ${CHROMIUM_PATH}: install Debian's "chromium" package (.ci/run does) or set CTXBENCH_CHROMIUM`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
