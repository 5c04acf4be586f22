import { cpus } from "node:os";
import { baselinePath, findRegressions, loadBaseline, saveBaseline, type BaselineFigure } from "../bench/baseline.ts";
import { NegativeVerdict } from "../util/errors.ts";
import type { CliIo } from "./io.ts";
import { prepareOutputFile } from "./output-paths.ts";

/** `--save-baseline` and `--baseline`, as bench and certify declare them. */
export const baselineOptions = {
  "save-baseline": { type: "string", describe: "Save the figures as a named baseline (.ctxbench/baselines/NAME.json)" },
  baseline: { type: "string", describe: "Compare with a saved baseline; exit 1 on a regression beyond max(10 %, the figures' uncertainty)" },
} as const;

export interface BaselineRequest {
  baseline: ReturnType<typeof loadBaseline> | null;
  /** What preparing the --save-baseline file created (removed when the run fails). */
  created: string[];
}

/** Checked (and made) before the run: a bad baseline name or a missing baseline is one line, not a lost run. */
export function prepareBaseline(io: CliIo, args: { baseline?: string | undefined; "save-baseline"?: string | undefined }): BaselineRequest {
  const baseline = args.baseline !== undefined ? loadBaseline(io.cwd, args.baseline) : null;
  const saved = args["save-baseline"] === undefined ? null : prepareOutputFile("--save-baseline", baselinePath(io.cwd, args["save-baseline"]), io.cwd);
  return { baseline, created: saved?.created ?? [] };
}

/** Saves the run's figures when asked, then gates them on the baseline: a regression is exit 1 naming each figure. */
export function saveAndGate(io: CliIo, args: { baseline?: string | undefined; "save-baseline"?: string | undefined }, request: BaselineRequest, figures: Record<string, BaselineFigure>): void {
  if (args["save-baseline"] !== undefined) {
    const machine = `${cpus()[0]?.model.trim() ?? "unknown"} ×${cpus().length}, node ${process.version}`;
    const path = saveBaseline(io.cwd, args["save-baseline"], { schemaVersion: 1, machine, figures });
    io.stderr(`saved baseline "${args["save-baseline"]}" to ${path}\n`);
  }
  if (request.baseline === null) return;
  const regressions = findRegressions(request.baseline, figures);
  if (regressions.length > 0) {
    const lines = regressions.map((r) => `  ${r.key}: ${r.baseline.toPrecision(4)} → ${r.current.toPrecision(4)} (${((r.worseBy - 1) * 100).toFixed(1)} % worse; allowed ${((r.allowed - 1) * 100).toFixed(1)} %)`);
    throw new NegativeVerdict(`${regressions.length} regression(s) against baseline "${args.baseline}":\n${lines.join("\n")}`);
  }
  io.stderr(`no regression against baseline "${args.baseline}" (${Object.keys(figures).length} figures compared)\n`);
}
