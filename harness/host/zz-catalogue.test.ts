import { it } from "vitest";
import { listScenarios, buildScenario } from "../../scenarios/catalogue/index.ts";
import { playScenario } from "./play.ts";
import { sandbox, TailEngine } from "./test-support.ts";
for (const info of listScenarios()) {
  it(info.name, async () => {
    const box = sandbox();
    const t0 = performance.now();
    const s = buildScenario(info.name, 1);
    const t1 = performance.now();
    const r = await playScenario(s, new TailEngine(), { home: box.home });
    const counts: Record<string, number> = {};
    for (const e of r.trace) counts[e.type] = (counts[e.type] ?? 0) + 1;
    const outcomes = r.trace.filter((e) => e.type === "compaction").map((e: any) => e.trigger + ":" + e.outcome);
    const exits = r.trace.filter((e) => e.type === "turn-end").map((e: any) => e.exitReason).filter((x) => x !== "completed");
    console.log(info.name, `build ${(t1 - t0).toFixed(0)}ms play ${(performance.now() - t1).toFixed(0)}ms`, JSON.stringify(counts), outcomes.join(","), exits.join(","));
    box.cleanup();
  }, 120000);
}
