import { describe, expect, it } from "vitest";
import { browserSkipReason } from "./browser.ts";

describe("browserSkipReason", () => {
  it("runs the browser tests where Chromium is", () => {
    expect(browserSkipReason({}, process.execPath)).toBeNull();
  });
  it("skips them, saying how to enable them, where it is missing outside CI", () => {
    for (const env of [{}, { CI: "" }, { CI: "false" }, { CI: "0" }]) {
      expect(browserSkipReason(env, "/nonexistent/chromium")).toBe('headless Chromium not found at /nonexistent/chromium: install Debian\'s "chromium" package (.ci/run does) or set CTXBENCH_CHROMIUM');
    }
  });
  it("never skips them in CI, where a missing browser must fail", () => {
    for (const CI of ["true", "1"]) expect(browserSkipReason({ CI }, "/nonexistent/chromium")).toBeNull();
  });
});
