import { describe, expect, it } from "vitest";
import { BUILT_IN_FORMATS, registerReporter, reportFormats } from "./formats.ts";
import { BUILT_IN_REPORTERS, reporterFor } from "./registry.ts";

describe("the reporters' shapes the CLI reads without loading them", () => {
  it("equal every built-in reporter's own format, file and printability, in its order", () => {
    expect(BUILT_IN_FORMATS).toEqual(BUILT_IN_REPORTERS.map(({ format, fileName, printable }) => ({ format, fileName, printable })));
  });

  it("offer a reporter registered at run time, which the registry then renders with", () => {
    const csv = { format: "csv-test", fileName: "report.csv", printable: true, render: () => "a,b\n" };
    const unregister = registerReporter(csv);
    try {
      expect(reportFormats()).toContain("csv-test");
      expect(reporterFor("csv-test")).toBe(csv);
      expect(() => registerReporter(csv)).toThrow('a reporter for "csv-test" is already registered');
    } finally {
      unregister();
    }
    expect(reportFormats()).not.toContain("csv-test");
  });

  it("keep whole pages off stdout unless asked", () => {
    expect(reportFormats()).not.toContain("html");
    expect(reportFormats({ pages: true })).toContain("html");
    expect(reportFormats({ pages: true })).not.toContain("github-summary");
  });
});
