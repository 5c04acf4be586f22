import type { BenchSuiteResult } from "../../reports/result.ts";
import type { BaselineFigure } from "./baseline.ts";
import type { Estimate } from "./stats.ts";

/** Half the interval's width over the value: the uncertainty a baseline gate allows for. */
const relativeHalfWidth = (estimate: Estimate) => (estimate.value > 0 ? (estimate.high - estimate.low) / 2 / estimate.value : 0);

/** The figures of a suite that a baseline remembers and a later run is gated on. */
export function figuresOf(suite: BenchSuiteResult): Record<string, BaselineFigure> {
  const figures: Record<string, BaselineFigure> = {};
  const lowerIsBetter = (value: number, relativeUncertainty = 0) => ({ value, relativeUncertainty, higherIsBetter: false });
  const higherIsBetter = (value: number, relativeUncertainty = 0) => ({ value, relativeUncertainty, higherIsBetter: true });
  switch (suite.suite) {
    case "overhead":
      for (const v of suite.variants) {
        // Ratios to the no-engine row were measured interleaved in one process: the figure that survives a noisy machine.
        if (v.ratioToNoEngine === null) continue;
        const r = v.ratioToNoEngine;
        figures[`overhead/${v.stage}/${v.variant}`] = lowerIsBetter(r.value, relativeHalfWidth(r));
      }
      break;
    case "throughput":
      for (const e of suite.engines) {
        for (const p of e.points) figures[`throughput/${e.engine}/${p.messages}`] = higherIsBetter(p.messagesPerSecond, relativeHalfWidth(p.medianMs));
      }
      for (const p of suite.hostShare) figures[`throughput/host-share/${p.messages}`] = lowerIsBetter(p.medianMs.value, relativeHalfWidth(p.medianMs));
      break;
    case "cache":
      for (const e of suite.engines) figures[`cache/${e.engine}/hit-ratio`] = higherIsBetter(e.hitRatio);
      break;
    case "quality":
      for (const e of suite.engines) figures[`quality/${e.engine}/recall-active`] = higherIsBetter(e.recallActive);
      break;
    case "store":
      figures["store/appends-per-second"] = higherIsBetter(suite.appendsPerSecond.value, relativeHalfWidth(suite.appendsPerSecond));
      figures["store/restores-per-second"] = higherIsBetter(suite.restoresPerSecond.value, relativeHalfWidth(suite.restoresPerSecond));
      figures["store/longest-write-lock-ms"] = lowerIsBetter(suite.longestWriteLockMs);
      break;
  }
  return figures;
}
