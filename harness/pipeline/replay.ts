import { parseSourceLabel } from "../conformance/sources.ts";
import type { EvaluatedCheck } from "../conformance/types.ts";
import { shellLine } from "./plan.ts";

export interface ReplayCommands {
  /** Certifies this one check again, at the seed that shows the outcome. */
  certify: string;
  /**
   * The same on only the catalogue scenarios that show the outcome (the check's probes still run),
   * when the check read others too: the quicker loop while fixing it. Null otherwise.
   */
  certifyShown: string | null;
  /** One `ctxbench run` per run that shows it, writing the trace the check read. */
  runs: Array<{ source: string; seed: number; command: string }>;
}

/** Where a replayed trace goes: the run's name and seed, made safe for a file name. */
export function replayTraceFile(source: string, seed: number): string {
  const { kind, name } = parseSourceLabel(source);
  return `${kind === "probe" ? "probe-" : ""}${name.replace(/[^A-Za-z0-9._-]+/g, "_")}-seed${seed}.jsonl`;
}

/**
 * The commands that replay a check: `flags` select the engine exactly as the run did. Each
 * `ctxbench run` plays the scenario (or the probe) with the same standard recorders a
 * certification player uses, so its trace holds the events the check's evidence names.
 */
export function replayCommands(flags: readonly string[], result: EvaluatedCheck): ReplayCommands {
  const seed = result.shownBy[0]?.seed ?? result.seeds[0] ?? 1;
  const certifyCheck = (...narrowing: string[]) => shellLine(["ctxbench", "certify", ...flags, "--checks", result.id, ...narrowing, "--seed", String(seed)]);
  const scenariosOf = (sources: readonly string[]) => new Set(sources.map(parseSourceLabel).filter((label) => label.kind === "scenario").map((label) => label.name));
  const shown = [...scenariosOf(result.shownBy.map((run) => run.source))];
  const certify = certifyCheck();
  const certifyShown = shown.length > 0 && shown.length < scenariosOf(result.sources).size ? certifyCheck("--scenarios", ...shown) : null;
  const runs = result.shownBy.map(({ source, seed: runSeed }) => {
    const { kind, name } = parseSourceLabel(source);
    const what = kind === "scenario" ? ["--scenario", name] : ["--probe", name];
    return { source, seed: runSeed, command: shellLine(["ctxbench", "run", ...flags, ...what, "--seed", String(runSeed), "--trace", replayTraceFile(source, runSeed)]) };
  });
  return { certify, certifyShown, runs };
}
