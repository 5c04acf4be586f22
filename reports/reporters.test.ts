import { describe, expect, it } from "vitest";
import { sampleResult, sampleRunInfo } from "../harness/result/sample-result.ts";
import { REPORT_FORMATS, reporters } from "./index.ts";
import { RESULT_SCHEMA_VERSION, type ResultJson } from "../harness/result/index.ts";

const empty: ResultJson = { schemaVersion: RESULT_SCHEMA_VERSION, runInfo: sampleRunInfo({ engines: [] }), certifications: [], benchmarks: [] };

describe.each(REPORT_FORMATS)("the %s reporter", (format) => {
  const reporter = reporters[format];

  it("is registered under its own format", () => {
    expect(reporter.format).toBe(format);
  });

  it("gives the same bytes for the same result (no clock, no randomness)", () => {
    expect(reporter.render(sampleResult())).toBe(reporter.render(sampleResult()));
  });

  it("renders a result with nothing in it, ending with a newline", () => {
    const text = reporter.render(empty);
    expect(text.endsWith("\n")).toBe(true);
    expect(text).not.toMatch(/undefined|NaN|\[object Object\]/);
  });

  it("never prints undefined, NaN or [object Object] for the sample", () => {
    expect(reporter.render(sampleResult())).not.toMatch(/undefined|NaN|\[object Object\]/);
  });
});
