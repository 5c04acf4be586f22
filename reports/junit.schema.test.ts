import { describe, expect, it } from "vitest";
import { junitSchemaErrors as schemaErrors } from "./fixtures/junit-schema.ts";
import { sampleResult } from "../harness/result/sample-result.ts";
import { junitReporter } from "./junit.ts";

describe("junit reporter against the Jenkins JUnit schema", () => {
  it("writes a file the schema accepts: certifications with every outcome, benchmarks with met and missed goals", async () => {
    expect(await schemaErrors(junitReporter.render(sampleResult()))).toEqual([]);
  });

  it("writes a file the schema accepts with only certifications, and with only benchmarks", async () => {
    expect(await schemaErrors(junitReporter.render(sampleResult({ withBenchmarks: false })))).toEqual([]);
    expect(await schemaErrors(junitReporter.render(sampleResult({ withCertifications: false })))).toEqual([]);
  });

  it("is a real check: the schema refuses a testcase without its name", async () => {
    const broken = junitReporter.render(sampleResult()).replace(/<testcase classname="([^"]*)" name="[^"]*"/, '<testcase classname="$1"');
    expect((await schemaErrors(broken)).join("\n")).toMatch(/name/);
  });
});
