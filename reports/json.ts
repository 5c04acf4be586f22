import type { Reporter } from "./reporter.ts";
import { canonicalResult } from "./result.ts";

/** The result itself, keys in schema order, two-space indented. */
export const jsonReporter: Reporter = {
  format: "json",
  render: (result) => `${JSON.stringify(canonicalResult(result), null, 2)}\n`,
};
