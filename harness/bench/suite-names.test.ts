import { describe, expect, it } from "vitest";
import { BENCH_SUITES, registerBenchSuite } from "./registry.ts";
import { availableSuites, BUILT_IN_SUITE_NAMES } from "./suite-names.ts";

describe("the suite names the CLI reads without loading the suites", () => {
  it("equal the registry's suites, in its order", () => {
    expect(BUILT_IN_SUITE_NAMES).toEqual(BENCH_SUITES.map((suite) => suite.name));
  });

  it("offer a suite registered at run time until it is unregistered", () => {
    const unregister = registerBenchSuite({ ...BENCH_SUITES[0], name: "names-test" } as never);
    try {
      expect(availableSuites()).toEqual([...BUILT_IN_SUITE_NAMES, "names-test"]);
    } finally {
      unregister();
    }
    expect(availableSuites()).toEqual([...BUILT_IN_SUITE_NAMES]);
  });
});
