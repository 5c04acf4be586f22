import { describe, expect, it } from "vitest";
import type { EvaluatedCheck } from "../conformance/types.ts";
import { renderRepro, reproFileName } from "./repro.ts";
import { replayCommands } from "./replay.ts";

const result: EvaluatedCheck = {
  id: "UID-7/shared-uid",
  rule: "UID-7",
  level: "MUST",
  title: "t",
  outcome: "fail",
  message: "kept the old one",
  durationMs: 1,
  sources: ["scenario:duplicate-uids", "probe:compress"],
  seeds: [7],
  shownBy: [
    { source: "probe:compress", seed: 7 },
    { source: "scenario:duplicate-uids", seed: 7 },
  ],
  evidence: [{ source: "probe:compress", seed: 7, seq: 4, note: "shared-uid", event: { seq: 4, type: "warning", session: null, message: "w", rule: null } }],
};

describe("repro files", () => {
  it("name the runs and seed that show the outcome and a command replaying each, then the trace excerpt", () => {
    const text = renderRepro(result, "mine", ["--engine", "mine", "--plugins", "my plugins"]);
    expect(text).toContain("ctxbench certify --engine mine --plugins 'my plugins' --checks UID-7/shared-uid --seed 7");
    expect(text).toContain("ctxbench run --engine mine --plugins 'my plugins' --probe compress --seed 7 --trace probe-compress-seed7.jsonl");
    expect(text).toContain("ctxbench run --engine mine --plugins 'my plugins' --scenario duplicate-uids --seed 7 --trace duplicate-uids-seed7.jsonl");
    expect(text).toContain("shown by: probe:compress at seed 7, scenario:duplicate-uids at seed 7");
    expect(text).toContain("probe:compress (seed 7) event 4");
    expect(reproFileName("UID-7/shared-uid")).toBe("UID-7_shared-uid.md");
  });

  it("offer the check on only the scenarios that show it when it read others too", () => {
    const read = { ...result, sources: ["scenario:duplicate-uids", "scenario:preflight", "scenario:copies", "probe:compress"] };
    const shownByTwo = { ...read, shownBy: [{ source: "scenario:preflight", seed: 7 }, { source: "probe:compress", seed: 7 }, { source: "scenario:duplicate-uids", seed: 7 }, { source: "scenario:preflight", seed: 7 }] };
    expect(replayCommands(["--engine", "x"], shownByTwo).certifyShown).toBe("ctxbench certify --engine x --checks UID-7/shared-uid --scenarios preflight duplicate-uids --seed 7");
    const text = renderRepro(shownByTwo, "x", ["--engine", "x"]);
    expect(text).toContain("ctxbench certify --engine x --checks UID-7/shared-uid --seed 7\n# quicker while you fix it: only the scenarios that show it (and the check's probes)\nctxbench certify --engine x --checks UID-7/shared-uid --scenarios preflight duplicate-uids --seed 7\n```");
    // Every scenario read shows it, or only a probe does: nothing quicker to offer.
    expect(replayCommands(["--engine", "x"], { ...read, shownBy: ["duplicate-uids", "preflight", "copies"].map((name) => ({ source: `scenario:${name}`, seed: 7 })) }).certifyShown).toBeNull();
    expect(replayCommands(["--engine", "x"], { ...read, shownBy: [{ source: "probe:compress", seed: 7 }] }).certifyShown).toBeNull();
    expect(renderRepro({ ...read, shownBy: [{ source: "probe:compress", seed: 7 }] }, "x", ["--engine", "x"])).not.toContain("--scenarios");
  });

  it("replay the seed of the first run that shows the outcome", () => {
    const commands = replayCommands(["--engine", "x"], { ...result, seeds: [1, 2, 3], shownBy: [{ source: "scenario:preflight", seed: 3 }] });
    expect(commands.certify).toBe("ctxbench certify --engine x --checks UID-7/shared-uid --seed 3");
    expect(commands.runs).toEqual([{ source: "scenario:preflight", seed: 3, command: "ctxbench run --engine x --scenario preflight --seed 3 --trace preflight-seed3.jsonl" }]);
  });
});
