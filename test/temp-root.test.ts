import { tmpdir } from "node:os";
import { expect, it } from "vitest";

it("a test's temporary files go under the run's own directory, which the run removes", () => {
  const root = process.env.CTXBENCH_TEST_TMP;
  expect(root).toMatch(/ctxbench-tests-/);
  expect(tmpdir()).toBe(root);
});
