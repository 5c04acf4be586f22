import type { Reporter } from "./reporter.ts";
import { canonicalResult } from "../harness/result/index.ts";

/** The result itself, keys in schema order, two-space indented. */
export const jsonReporter: Reporter = {
  format: "json",
  fileName: "result.json",
  printable: true,
  render: (result) => `${JSON.stringify(canonicalResult(result), null, 2)}\n`,
};
