import { canonicalJson } from "../../trace/canonical-json.ts";
import type { TraceEvent } from "../../trace/events.ts";
import type { Check, CheckRun, Evidence } from "../types.ts";
import { allCalls, calls, evidenceOf, fail, indeterminate, pass, perSeed } from "./helpers.ts";
import { findLeaks, SHINGLE_WORDS } from "./session-content.ts";

const failed = (kind: string) => kind === "error" || kind === "timeout";

const runtimeChecksBySeed: Check[] = [
  {
    id: "LIFE-2/lifecycle",
    rule: "LIFE-2",
    level: "MUST",
    title: "the engine survives repeated sessions, on_session_reset (which zeroes its counters) and update_model",
    scenarios: [],
    probes: ["lifecycle"],
    evaluate(runs) {
      const all = allCalls(runs);
      if (all.length === 0) return indeterminate("the lifecycle probe recorded nothing");
      const broken = all.find((c) => failed(c.event.resultKind));
      if (broken) return fail(`${broken.event.hook} (${String(broken.detail["case"] ?? broken.detail["step"] ?? "")}) threw: ${broken.event.error}`, [evidenceOf(broken.source, broken.event, "failed")]);
      const [reset] = calls(runs, "on_session_reset");
      if (!reset) return indeterminate("the lifecycle probe did not reach the reset");
      const state = reset.event.stateAfter;
      const left = (["last_prompt_tokens", "last_completion_tokens", "last_total_tokens", "compression_count"] as const).filter((key) => state[key] !== 0);
      if (left.length > 0) return fail(`after on_session_reset: ${left.map((key) => `${key} = ${state[key]}`).join(", ")}`, [evidenceOf(reset.source, reset.event, "state after reset")]);
      return pass(`${all.length} lifecycle calls succeeded; reset zeroed the counters`);
    },
  },
  {
    id: "THR-1/no-context-affinity",
    rule: "THR-1",
    level: "MUST",
    title: "calls from other async contexts behave exactly as calls from the session's own",
    scenarios: [],
    probes: ["async-contexts"],
    evaluate(runs) {
      const all = allCalls(runs);
      const broken = all.find((c) => failed(c.event.resultKind));
      if (broken) return fail(`${broken.event.hook} (${String(broken.detail["case"] ?? "")}) threw: ${broken.event.error}`, [evidenceOf(broken.source, broken.event, "failed")]);
      const compresses = calls(runs, "compress");
      const baseline = compresses.find((c) => c.detail["case"] === "baseline");
      if (!baseline) return indeterminate("the baseline compress was not recorded");
      const expected = canonicalJson(baseline.detail["output"] ?? null);
      const others = compresses.filter((c) => c !== baseline);
      const differing = others.find((c) => canonicalJson(c.detail["output"] ?? null) !== expected);
      if (differing) {
        return fail(`compress from a ${String(differing.detail["case"])} answered differently from the same call in the session's own context`, [
          evidenceOf(baseline.source, baseline.event, "baseline"),
          evidenceOf(differing.source, differing.event, String(differing.detail["case"])),
        ]);
      }
      return others.length > 0 ? pass(`${others.length} calls from other contexts matched the baseline`) : indeterminate("no call from another context was recorded");
    },
  },
  {
    id: "THR-2/session-isolation",
    rule: "THR-2",
    level: "MUST",
    title: "one engine shared by concurrent sessions never fails on interleaving and never shows one session's content in another's output",
    scenarios: ["concurrent-sessions"],
    // The compress probe plays its cut-position cases on one engine, one session each: leaks show there too.
    probes: ["shared-sessions", "compress"],
    evaluate(runs) {
      const evidence: Evidence[] = [];
      let outputs = 0;
      let sessions = 0;
      for (const run of runs) {
        if (run.source === "probe:shared-sessions") {
          const thrown = run.trace.find((event) => event.type === "engine-call" && failed(event.resultKind));
          if (thrown?.type === "engine-call") return fail(`${thrown.hook} threw while sessions interleaved (${run.source}, seed ${run.seed}): ${thrown.error}`, [evidenceOf(run.source, thrown, "failed")]);
        }
        // By content, not only by markers: a run of words only another session was given, or its canary.
        const search = findLeaks(run);
        outputs += search.outputs;
        sessions += search.sessions;
        for (const leak of search.leaks) {
          const what = leak.canary ? `${leak.excerpt} (session ${leak.from}'s canary)` : `"${leak.excerpt}" (session ${leak.from}'s own text)`;
          evidence.push(evidenceOf(run.source, leak.event, `${what} in session ${leak.session}'s ${leak.event.type === "request" ? "request" : "output"} (${run.source}, seed ${run.seed})`));
        }
      }
      if (evidence.length > 0) return fail(`content of one session appeared in another's output: ${evidence[0]!.note}${evidence.length > 1 ? ` (and ${evidence.length - 1} more)` : ""}`, evidence);
      return outputs > 0 ? pass(`${outputs} outputs of ${sessions} sessions hold nothing of another session's own text (runs of ${SHINGLE_WORDS} words) or canaries`) : indeterminate("no session output recorded");
    },
  },
  {
    id: "THR-4/nothing-published-after-timeout",
    rule: "THR-4",
    level: "MUST",
    title: "after a host timeout the engine has written nothing durable outside the commit",
    scenarios: ["compression-timeout"],
    probes: ["discarded-pass"],
    evaluate(runs) {
      const snapshots: Array<{ source: string; event: TraceEvent; before: Record<string, string>; after: Record<string, string> }> = [];
      for (const run of runs) {
        for (const event of run.trace) {
          if (event.type === "sandbox-watch" && event.after !== null) snapshots.push({ source: run.source, event, before: event.before, after: event.after });
          if (event.type === "engine-call" && event.hook === "compress" && event.detail?.["case"] === "discarded" && "after" in event.detail) {
            snapshots.push({ source: run.source, event, before: event.detail["before"] as Record<string, string>, after: event.detail["after"] as Record<string, string> });
          }
        }
      }
      if (snapshots.length === 0) return indeterminate("no discarded pass settled");
      for (const { source, event, before, after } of snapshots) {
        const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((path) => before[path] !== after[path]).sort();
        if (changed.length > 0) return fail(`a discarded pass changed ${changed.length} sandbox file(s): ${changed.slice(0, 5).join(", ")}`, [evidenceOf(source, event, "sandbox snapshot before and after")]);
      }
      return pass(`sandbox unchanged after ${snapshots.length} discarded pass(es)`);
    },
  },
];

/** LIFE-2 and THR-1 read one probe run each: judged seed by seed. THR-2 and THR-4 judge every run already. */
export const runtimeChecks: Check[] = runtimeChecksBySeed.map((check) => (check.rule === "LIFE-2" || check.rule === "THR-1" ? perSeed(check) : check));
