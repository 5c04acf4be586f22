/** Launching the system's headless Chromium for the HTML report's browser test and screenshot. */
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.CTXBENCH_CHROMIUM ?? "/usr/bin/chromium";

const missing = (path: string) => `headless Chromium not found at ${path}: install Debian's "chromium" package (.ci/run does) or set CTXBENCH_CHROMIUM`;

/**
 * Why the browser tests cannot run here, or null when they can. On a developer's machine without
 * Chromium they are skipped with this reason; in CI (CI set) a missing browser is a failure.
 */
export function browserSkipReason(env: NodeJS.ProcessEnv = process.env, path = CHROMIUM_PATH): string | null {
  if (existsSync(path)) return null;
  const ci = env["CI"];
  if (ci !== undefined && ci !== "" && ci !== "false" && ci !== "0") return null;
  return missing(path);
}

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(missing(CHROMIUM_PATH));
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
