import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { sampleResult } from "../harness/result/sample-result.ts";
import { parseResult } from "../harness/result/index.ts";
import { writeAllReports } from "./publish.ts";

describe("writeAllReports", () => {
  it("writes one file per format into a new directory; the json reads back as the result", async () => {
    const directory = join(mkdtempSync(join(tmpdir(), "ctxbench-all-")), "nested", "out");
    const result = sampleResult();
    const paths = await writeAllReports(result, directory);
    expect(paths.map((path) => basename(path))).toEqual(["report.txt", "report.md", "report.html", "result.json", "junit.xml", "report.tap"]);
    expect(parseResult(readFileSync(join(directory, "result.json"), "utf8"))).toEqual(result);
    expect(readFileSync(join(directory, "report.txt"), "utf8")).not.toContain("\u001b");
    expect(readFileSync(join(directory, "report.tap"), "utf8").startsWith("TAP version 14\n")).toBe(true);
  });
});
