/** Runs the session-store benchmark and prints its figures: `npx tsx harness/bench/suites/store.run.ts [--rows N] [--legacy-rows N]`. */
import { tmpdir } from "node:os";
import { runStoreBench } from "./store.ts";

const flag = (name: string): number | undefined => {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isInteger(value) && value > 0 ? value : undefined;
};
const rows = flag("--rows");
const legacyRows = flag("--legacy-rows");
const result = await runStoreBench({ dir: tmpdir(), ...(rows === undefined ? {} : { rows }), ...(legacyRows === undefined ? {} : { legacyRows }) });
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
