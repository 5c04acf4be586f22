import { describe, expect, it } from "vitest";
import type { Message } from "../../contract/types.ts";
import { validateSequence } from "../../contract/validate.ts";
import type { TraceEvent } from "../../trace/events.ts";
import { buildConversation, withUniqueToolCallIds } from "../probes/conversation.ts";
import type { CheckRun } from "../types.ts";
import { CHECKS } from "./index.ts";
import { withOccurrenceIds } from "./truth-view.ts";

const STATE = { last_prompt_tokens: 0, last_completion_tokens: 0, last_total_tokens: 0, threshold_tokens: 6000, context_length: 8000, compression_count: 1 };
const digest = { digest: "0", size: 0 };

/** A probe's compress call as the trace holds it. */
function probeCall(seq: number, name: string, input: readonly Message[], output: unknown, extra: Record<string, unknown> = {}): TraceEvent {
  const threw = output instanceof Error;
  return {
    seq,
    session: `compress-${name}`,
    type: "engine-call",
    hook: "compress",
    args: [digest],
    resultKind: threw ? "error" : Array.isArray(output) ? "list" : "non-list",
    result: threw ? null : digest,
    error: threw ? `Error: ${output.message}` : null,
    async: false,
    stateAfter: STATE,
    detail: { case: name, input, focus_topic: null, threshold_tokens: 6000, ...(threw ? { thrown: output.message } : { output }), ...extra },
    durationMs: 0,
  };
}

/** A host pass as the trace holds it. */
function hostPass(seq: number, input: readonly Message[], output: unknown): TraceEvent {
  const threw = output instanceof Error;
  return {
    seq,
    session: "s1",
    type: "compaction",
    trigger: "post-tool",
    outcome: threw ? "error" : "committed",
    focus_topic: null,
    input: [...input],
    output: threw ? null : (output as Message[]),
    tokensBefore: 1,
    tokensAfter: 1,
    mode: "in-place",
    error: threw ? output.message : null,
    pass: seq,
    durationMs: 0,
  };
}

const probeRun = (events: TraceEvent[], seed = 1): CheckRun => ({ source: "probe:compress", seed, scenario: null, trace: events });
const scenarioRun = (events: TraceEvent[], seed = 1): CheckRun => ({ source: "scenario:repeated-tool-call-ids", seed, scenario: null, trace: events });

function outcomes(runs: CheckRun[], ids: string[]): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [id, CHECKS.find((check) => check.id === id)!.evaluate(runs).outcome]));
}

/** Keep the system message, a summary, and the input from `cut` on: the cut of a keep-the-tail engine. */
const cutAt = (input: readonly Message[], cut: number): Message[] => [input[0]!, { role: "user", content: "Summary of the earlier turns." }, ...input.slice(cut)];

/** The index of the nth tool result of the input (0-based) that is not the first of its batch. */
const innerResult = (input: readonly Message[]) => input.findIndex((m, i) => m.role === "tool" && input[i - 1]?.role === "tool");

const batched = (ids: "constant" | "per-response" | "unique") => buildConversation(11, { turns: 12, words: 12, toolEvery: 1, batch: 3, ids, resultChars: 60 }, `judgement-${ids}`);

describe("every output is judged, whatever its input's tag (compress-judgement.ts)", () => {
  it("a batch split by the cut on repeated ids is CMP-2 only when the twin with unique ids shows the same split", () => {
    const repeated = batched("constant");
    const twin = withUniqueToolCallIds(repeated);
    const cut = innerResult(repeated);
    const runs = [probeRun([probeCall(0, "repeated", repeated, cutAt(repeated, cut), { counterfactual: "repeated/unique" }), probeCall(1, "repeated/unique", twin, cutAt(twin, cut))])];
    const result = outcomes(runs, ["CMP-2/orphaned-result", "TCU-3/repeated-tool-call-ids"]);
    expect(result).toEqual({ "CMP-2/orphaned-result": "fail", "TCU-3/repeated-tool-call-ids": "pass" });
  });

  it("an orphan only repeated ids explain is CMP-2 and TCU-3, and says why TCU-3 is blamed", () => {
    const repeated = batched("constant");
    const twin = withUniqueToolCallIds(repeated);
    // Drops an assistant's calls but keeps its results: with unique ids the engine's id filter drops them too.
    const lastCalls = repeated.findLastIndex((m) => (m.tool_calls?.length ?? 0) > 0);
    const previousCalls = repeated.slice(0, lastCalls).findLastIndex((m) => (m.tool_calls?.length ?? 0) > 0);
    const broken = [repeated[0]!, ...repeated.slice(previousCalls + 1)];
    const runs = [probeRun([probeCall(0, "repeated", repeated, broken, { counterfactual: "repeated/unique" }), probeCall(1, "repeated/unique", twin, [twin[0]!, ...twin.slice(previousCalls + 4)])])];
    const tcu3 = CHECKS.find((check) => check.id === "TCU-3/repeated-tool-call-ids")!.evaluate(runs);
    expect(outcomes(runs, ["CMP-2/orphaned-result"])).toEqual({ "CMP-2/orphaned-result": "fail" });
    expect(tcu3.outcome).toBe("fail");
    expect(tcu3.message).toContain("caused by repeated provider tool-call ids: its twin without repeated provider tool-call ids (repeated/unique) did not show it");
  });

  it("a result paired with another turn's call hides from a provider behind a repeated id: TCU-3 sees it, CMP-2 does not", () => {
    const repeated = batched("per-response");
    const twin = withUniqueToolCallIds(repeated);
    // Keep turn k's assistant and turn k+1's results: by id alone the pairing looks whole.
    const assistants = repeated.flatMap((m, i) => ((m.tool_calls?.length ?? 0) > 0 ? [i] : []));
    const [a1, a2] = [assistants[8]!, assistants[9]!];
    const hidden = [repeated[0]!, repeated[a1 - 1]!, repeated[a1]!, ...repeated.slice(a2 + 1)];
    expect(validateSequence(hidden).filter((f) => f.severity === "error")).toEqual([]);
    const clean = [twin[0]!, ...twin.slice(a2 - 1)];
    const runs = [probeRun([probeCall(0, "reused", repeated, hidden, { counterfactual: "reused/unique" }), probeCall(1, "reused/unique", twin, clean)])];
    expect(outcomes(runs, ["CMP-2/orphaned-result", "CMP-2/unanswered-call", "TCU-3/repeated-tool-call-ids"])).toEqual({
      "CMP-2/orphaned-result": "pass",
      "CMP-2/unanswered-call": "pass",
      "TCU-3/repeated-tool-call-ids": "fail",
    });
  });

  it("a host pass has no twin: its defect is blamed on repeated ids only if no input without them shows the same kind", () => {
    const repeated = batched("constant");
    const unique = batched("unique");
    const cut = innerResult(repeated);
    const withUnique = [probeRun([probeCall(0, "unique", unique, cutAt(unique, innerResult(unique)))]), scenarioRun([hostPass(0, repeated, cutAt(repeated, cut))])];
    expect(outcomes(withUnique, ["CMP-2/orphaned-result", "TCU-3/repeated-tool-call-ids"])).toEqual({ "CMP-2/orphaned-result": "fail", "TCU-3/repeated-tool-call-ids": "pass" });
    const alone = [probeRun([probeCall(0, "unique", unique, unique.slice(0, 1).concat(unique.slice(-6)))]), scenarioRun([hostPass(0, repeated, cutAt(repeated, cut))])];
    expect(outcomes(alone, ["CMP-2/orphaned-result", "TCU-3/repeated-tool-call-ids"])).toEqual({ "CMP-2/orphaned-result": "fail", "TCU-3/repeated-tool-call-ids": "fail" });
  });

  it("a throw on the uid-less preflight input alone is CMP-9's, not CMP-1's; a throw on every input is CMP-1's, not CMP-9's", () => {
    const before = buildConversation(5, { turns: 20, words: 30 }, "preflight");
    const preflight = [...before, { role: "user", content: "now?" }];
    const flushed = [...before, { role: "user", content: "now?", message_uid: "f".repeat(32) }];
    const kept = (input: Message[]) => [input[0]!, ...input.slice(-3)];
    const onlyPreflight = [probeRun([probeCall(0, "preflight", preflight, new Error("no uid"), { counterfactual: "preflight/with-uid" }), probeCall(1, "preflight/with-uid", flushed, kept(flushed))])];
    expect(outcomes(onlyPreflight, ["CMP-1/message-shape", "CMP-9/preflight-without-uid"])).toEqual({ "CMP-1/message-shape": "pass", "CMP-9/preflight-without-uid": "fail" });
    const everywhere = [probeRun([probeCall(0, "preflight", preflight, new Error("boom"), { counterfactual: "preflight/with-uid" }), probeCall(1, "preflight/with-uid", flushed, new Error("boom"))])];
    expect(outcomes(everywhere, ["CMP-1/message-shape", "CMP-9/preflight-without-uid"])).toEqual({ "CMP-1/message-shape": "fail", "CMP-9/preflight-without-uid": "indeterminate" });
  });

  it("judges tagged inputs by every output rule: object content on a legacy-rows input fails CMP-1 (the old checks skipped it)", () => {
    const legacy = buildConversation(6, { turns: 20, words: 30 }, "legacy").map(({ message_uid: _uid, ...rest }) => rest as Message);
    const output = [legacy[0]!, { role: "user", content: { text: "summary" } }, ...legacy.slice(-2)];
    const evaluation = CHECKS.find((check) => check.id === "CMP-1/message-shape")!.evaluate([probeRun([probeCall(0, "legacy", legacy, output)])]);
    expect(evaluation.outcome).toBe("fail");
    expect(evaluation.message).toBe("legacy (probe:compress, seed 1): element 1 (role user): content is an object; expected a string or a list of typed parts");
  });

  it("a pass whose output only passes its input through is indeterminate, not pass: the compaction path never ran", () => {
    const input = batched("unique");
    const evaluation = CHECKS.find((check) => check.id === "CMP-2/split-batch")!.evaluate([probeRun([probeCall(0, "same", input, input)])]);
    expect(evaluation.outcome).toBe("indeterminate");
    expect(evaluation.message).toContain("1 outputs judged (1 probe calls, 0 host passes; seed 1), 0 compacted their input");
  });

  it("names the seed that shows a failure", () => {
    const input = batched("unique");
    const evaluation = CHECKS.find((check) => check.id === "CMP-2/orphaned-result")!.evaluate([probeRun([probeCall(0, "ok", input, cutAt(input, input.length - 1))], 1), probeRun([probeCall(0, "cut", input, cutAt(input, innerResult(input)))], 4)]);
    expect(evaluation.outcome).toBe("fail");
    expect(evaluation.message).toMatch(/^cut \(probe:compress, seed 4\): element 2 \(role tool\)/);
  });
});

describe("the true pairing of call occurrences (truth-view.ts)", () => {
  it("gives every occurrence its own id and carries it to the results of that occurrence", () => {
    const input = batched("constant").slice(0, 12);
    const renamed = withOccurrenceIds(input, input) as Message[];
    const ids = renamed.flatMap((m) => (m.tool_calls ?? []).map((call) => call.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(validateSequence(renamed).filter((f) => f.severity === "error")).toEqual([]);
    const results = renamed.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
    expect(results).toEqual(ids);
  });

  it("traces an output message back by uid even when the engine changed its text", () => {
    const input = batched("constant").slice(0, 12);
    const output = input.map((m) => (m.role === "tool" ? { ...m, content: "[pruned]" } : m));
    expect(validateSequence(withOccurrenceIds(input, output)).filter((f) => f.severity === "error")).toEqual([]);
  });
});
