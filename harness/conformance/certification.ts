import type { Certification, CheckResult, Repro } from "./check-result.ts";
import { abridge } from "./excerpt.ts";
import { expectedOutcome, isUnexpected, type Expectations } from "./expectations.ts";
import type { EvaluatedCheck } from "./types.ts";
import { certificationOf, type CertificationScope } from "./verdict.ts";

/**
 * Command lines that replay one check, for repro files and reports. `engine` is the engine
 * selection as typed on the command line: a name, or a name with `--plugins DIR` and the like.
 */
export function replayCommands(engine: string, result: EvaluatedCheck, seed: number): { certify: string; runs: string[] } {
  const certify = `ctxbench certify --engine ${engine} --checks ${result.id} --seed ${seed}`;
  const runs = result.sources
    .filter((source) => source.startsWith("scenario:"))
    .map((source) => `ctxbench run --engine ${engine} --scenario ${source.slice("scenario:".length)} --seed ${seed} --trace ${source.slice("scenario:".length)}.jsonl`);
  return { certify, runs };
}

/** One check as the result JSON reports it: expectation applied, evidence abridged, a repro for unexpected outcomes. */
export function reportCheck(result: EvaluatedCheck, engine: string, seed: number, expectations: Expectations): CheckResult {
  const expected = expectedOutcome(result.id, expectations);
  const unexpected = isUnexpected(result.outcome, expected);
  const reason = expectations.get(result.id)?.reason;
  const message = !unexpected && expected !== null && reason ? `${result.message} (expected: ${reason})` : result.message;
  const notes = result.evidence.map((item) => item.note);
  const reported: CheckResult = {
    id: result.id,
    rule: result.rule,
    title: result.title,
    level: result.level,
    outcome: result.outcome,
    expected,
    unexpected,
    message,
    evidence: {
      events: result.evidence.map((item) => ({ source: item.source, seq: item.seq, note: item.note, event: abridge(item.event) })),
      ...(notes.length > 0 ? { note: notes.join("; ") } : {}),
    },
    durationMs: Math.round(result.durationMs * 10) / 10,
  };
  if (result.skipReason !== undefined) reported.skipReason = result.skipReason;
  if (unexpected && result.outcome !== "pass") reported.repro = reproOf(result, engine, seed);
  return reported;
}

/** The run that shows the outcome: where its evidence comes from, else the first run the check read. */
function reproOf(result: EvaluatedCheck, engine: string, seed: number): Repro {
  const commands = replayCommands(engine, result, seed);
  return { scenario: result.evidence[0]?.source ?? result.sources[0] ?? "", seed, command: commands.certify };
}

/** `selection` is how repro commands select the engine (default its name); see replayCommands. */
export function certify(
  engine: { name: string; version: string | null },
  results: readonly EvaluatedCheck[],
  seed: number,
  expectations: Expectations,
  scope: CertificationScope,
  selection = engine.name,
): Certification {
  return certificationOf(
    { name: engine.name, version: engine.version ?? "unversioned" },
    results.map((result) => reportCheck(result, selection, seed, expectations)),
    scope,
  );
}
