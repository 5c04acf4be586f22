import type { Usage } from "../../contract/types.ts";
import type { EngineStateSnapshot } from "../../trace/events.ts";
import type { Check, Evaluation, Evidence } from "../types.ts";
import { calls, evidenceOf, fail, indeterminate, pass, skipped, allCalls, perSeed } from "./helpers.ts";

/**
 * REG-5 as upstream selects: on the directory path (and for a bundled engine) the directory's name
 * is the selection key, so the engine's name must equal it; a general plugin is selected by the
 * registered engine's name, so that must equal the selection and its directory and plugin.yaml may
 * be called anything (hermes-lcm registers `lcm`). Upstream's directory loader never reads
 * plugin.yaml's name, so a different one there is a note, not a failure.
 */
function judgeName(name: string, selected: string, via: string | null, directoryName: string | null, manifestName: string | null, evidence: Evidence[]): Evaluation {
  if (via === "general") {
    if (name !== selected) return fail(`name "${name}" differs from the name it was selected by, "${selected}" (a general plugin's registered engine is taken only when its name equals the selection)`, evidence);
    const names = [directoryName !== null && directoryName !== name ? `directory "${directoryName}"` : null, manifestName !== null && manifestName !== name ? `plugin.yaml "${manifestName}"` : null].filter((x) => x !== null);
    return pass(`name "${name}" matches its selection through the general-plugin path${names.length > 0 ? ` (${names.join(", ")} may differ there)` : ""}`, evidence);
  }
  const key = directoryName ?? selected;
  if (name !== key) return fail(`name "${name}" differs from ${directoryName !== null ? `its plugin directory's name "${key}", which selects it` : `the name it was selected by, "${key}"`}`, evidence);
  const note = manifestName !== null && manifestName !== name ? `; plugin.yaml says "${manifestName}", which the directory loader does not read` : "";
  return pass(`name "${name}" matches its selection${via === null ? "" : ` (${via} path)`}${note}`, evidence);
}

const isCount = (value: unknown) => typeof value === "number" && Number.isInteger(value) && value >= 0;

const basicChecksBySeed: Check[] = [
  {
    id: "REG-5/name-matches-selection",
    rule: "REG-5",
    level: "MUST",
    title: "name is a non-empty string equal to the name the engine is selected by",
    scenarios: [],
    probes: ["identity"],
    evaluate(runs) {
      const [status] = calls(runs, "get_status", (detail) => "selectedName" in detail);
      if (!status) return indeterminate("the identity probe recorded no status call");
      const { name, selectedName, via, directoryName, manifestName } = status.detail;
      const evidence = [evidenceOf(status.source, status.event, `name ${JSON.stringify(name)}, selected as ${JSON.stringify(selectedName)}${typeof via === "string" ? ` via the ${via} path` : ""}`)];
      if (typeof name !== "string" || name === "") return fail(`name is ${JSON.stringify(name)}, not a non-empty string`, evidence);
      return judgeName(name, String(selectedName), typeof via === "string" ? via : null, typeof directoryName === "string" ? directoryName : null, typeof manifestName === "string" ? manifestName : null, evidence);
    },
  },
  {
    id: "REG-6/clone-independent",
    rule: "REG-6",
    level: "MUST",
    title: "clone_for_agent gives a distinct working engine with the same configuration and its own budget state",
    scenarios: [],
    probes: ["clone"],
    evaluate(runs) {
      const [clone] = calls(runs, "clone_for_agent");
      if (!clone) return indeterminate("the clone probe recorded no clone_for_agent call");
      const cloneEvidence = evidenceOf(clone.source, clone.event, "clone_for_agent");
      if (clone.event.resultKind === "error") return fail(`clone_for_agent threw: ${clone.event.error}`, [cloneEvidence]);
      if (!("sameObject" in clone.detail)) return fail("clone_for_agent did not return an engine object", [cloneEvidence]);
      if (clone.detail["sameObject"] === true) return fail("clone_for_agent returned the original engine itself", [cloneEvidence]);
      if (clone.detail["cloneThresholdPercent"] !== clone.detail["originalThresholdPercent"]) {
        return fail(`the clone's threshold_percent ${String(clone.detail["cloneThresholdPercent"])} differs from the original's ${String(clone.detail["originalThresholdPercent"])}`, [cloneEvidence]);
      }
      const broken = calls(runs, "update_from_response", (d) => d["case"] === "clone-usage")
        .concat(calls(runs, "compress", (d) => d["case"] === "clone-compress"), calls(runs, "update_model", (d) => d["case"] === "clone-model"), calls(runs, "on_session_start", (d) => d["case"] === "clone-start"))
        .filter((c) => c.event.resultKind === "error" || c.event.resultKind === "timeout");
      if (broken.length > 0) return fail(`the clone does not work on its own: ${broken[0]!.event.hook} threw ${broken[0]!.event.error}`, broken.map((c) => evidenceOf(c.source, c.event, "clone call failed")));
      const [after] = calls(runs, "get_status", (d) => d["case"] === "original-after");
      if (!after) return indeterminate("the clone probe did not reach its final comparison");
      const before = after.detail["originalBefore"] as EngineStateSnapshot;
      const now = after.detail["originalAfter"] as EngineStateSnapshot;
      const changed = (Object.keys(before) as (keyof EngineStateSnapshot)[]).filter((key) => before[key] !== now[key]);
      if (changed.length > 0) {
        return fail(`driving the clone changed the original's ${changed.join(", ")}`, [evidenceOf(after.source, after.event, "original state before and after the clone was driven")]);
      }
      return pass("the clone is distinct, carries threshold_percent and keeps its own budget state", [cloneEvidence]);
    },
  },
  {
    id: "ABC-1/base-class-and-members",
    rule: "ABC-1",
    level: "MUST",
    title: "the engine extends ContextEngine and implements name, update_from_response, should_compress and compress",
    scenarios: [],
    probes: ["identity"],
    evaluate(runs) {
      const [status] = calls(runs, "get_status", (detail) => "isContextEngine" in detail);
      if (!status) return indeterminate("the identity probe recorded no status call");
      const evidence = [evidenceOf(status.source, status.event, "identity of the engine")];
      if (status.detail["isContextEngine"] !== true) {
        const native = status.detail["nativeClass"] as { language: string; qualname: string; mro: string[] } | undefined;
        if (native) {
          // A class name in brackets is a description (a TypeScript engine that is a plain object, made by no class).
          const what = native.qualname.startsWith("(") ? `the ${native.language} engine is a ${native.qualname.slice(1, -1)} and` : `the ${native.language} class ${native.qualname}`;
          return fail(`${what} does not subclass the contract's ContextEngine (its ${native.language === "python" ? "MRO" : "prototype chain"}: ${native.mro.join(" → ")})`, evidence);
        }
        return fail("the engine is not built on the contract's ContextEngine base class (no brand)", evidence);
      }
      const members = status.detail["members"] as Record<string, string>;
      const missing = Object.entries(members).filter(([, type]) => type !== "function").map(([member]) => member);
      if (missing.length > 0) return fail(`missing methods: ${missing.join(", ")}`, evidence);
      if (status.detail["nameType"] !== "string") return fail(`name is a ${String(status.detail["nameType"])}, not a string`, evidence);
      return pass("a ContextEngine with every required member", evidence);
    },
  },
  {
    id: "ABC-2/usage-echo",
    rule: "ABC-2",
    level: "MUST",
    title: "update_from_response copies prompt, completion and total tokens into the last_* counters",
    scenarios: [],
    probes: ["usage"],
    evaluate(runs) {
      const updates = calls(runs, "update_from_response", (d) => d["case"] === "full");
      if (updates.length === 0) return indeterminate("the usage probe recorded no complete usage");
      for (const update of updates) {
        if (update.event.resultKind === "error") return fail(`update_from_response threw: ${update.event.error}`, [evidenceOf(update.source, update.event, "threw")]);
        const usage = update.detail["usage"] as Usage;
        const state = update.event.stateAfter;
        const wrong = (["prompt", "completion", "total"] as const).filter((kind) => state[`last_${kind}_tokens`] !== usage[`${kind}_tokens`]);
        if (wrong.length > 0) {
          return fail(
            wrong.map((kind) => `last_${kind}_tokens is ${state[`last_${kind}_tokens`]}, usage said ${usage[`${kind}_tokens`]}`).join("; "),
            [evidenceOf(update.source, update.event, "state after update_from_response")],
          );
        }
      }
      return pass(`${updates.length} usage dicts echoed exactly`);
    },
  },
  {
    id: "ABC-3/odd-usage-accepted",
    rule: "ABC-3",
    level: "MUST",
    title: "update_from_response accepts usage without optional buckets and with unknown keys",
    scenarios: [],
    probes: ["usage"],
    evaluate(runs) {
      const odd = calls(runs, "update_from_response", (d) => d["case"] === "minimal" || d["case"] === "extras");
      if (odd.length === 0) return indeterminate("the usage probe recorded no odd usage");
      const thrown = odd.filter((c) => c.event.resultKind === "error");
      if (thrown.length > 0) return fail(`update_from_response threw on ${String(thrown[0]!.detail["case"])} usage: ${thrown[0]!.event.error}`, thrown.map((c) => evidenceOf(c.source, c.event, String(c.detail["case"]))));
      return pass("minimal and extra-key usage accepted");
    },
  },
  {
    id: "ABC-4/budget-integers",
    rule: "ABC-4",
    level: "MUST",
    title: "context_length and threshold_tokens are non-negative integers with 0 < threshold_tokens <= context_length once known",
    scenarios: [],
    probes: ["usage", "lifecycle"],
    evaluate(runs) {
      const all = allCalls(runs);
      if (all.length === 0) return indeterminate("no engine calls recorded");
      for (const c of all) {
        const { context_length: window, threshold_tokens: threshold } = c.event.stateAfter;
        const evidence = [evidenceOf(c.source, c.event, `context_length ${window}, threshold_tokens ${threshold}`)];
        if (!isCount(window) || !isCount(threshold)) return fail(`after ${c.event.hook}: context_length ${window} and threshold_tokens ${threshold} must be non-negative integers`, evidence);
        if (window > 0 && (threshold <= 0 || threshold > window)) return fail(`after ${c.event.hook}: threshold_tokens ${threshold} is outside (0, ${window}]`, evidence);
      }
      return pass(`budget fields valid after ${all.length} calls`);
    },
  },
  {
    id: "ABC-5/compression-count",
    rule: "ABC-5",
    level: "MUST",
    title: "compression_count grows by exactly one per completed compress call",
    scenarios: [],
    probes: ["compress"],
    evaluate(runs) {
      let checked = 0;
      for (const run of runs) {
        // The probe drives its engines one after another, so the event before a call is that engine's last state.
        let before: number | undefined;
        for (const event of run.trace) {
          if (event.type !== "engine-call") continue;
          const previous = before;
          before = event.stateAfter.compression_count;
          if (event.hook !== "compress" || event.resultKind === "error" || event.resultKind === "timeout" || previous === undefined) continue;
          checked++;
          const grew = event.stateAfter.compression_count - previous;
          if (grew !== 1) return fail(`compression_count went from ${previous} to ${event.stateAfter.compression_count} over one compress call (${String(event.detail?.["case"] ?? "")})`, [evidenceOf(run.source, event, `grew by ${grew}`)]);
        }
      }
      return checked > 0 ? pass(`${checked} compress calls each counted once`) : indeterminate("no completed compress call to count");
    },
  },
  {
    id: "ABC-6/should-compress-boolean",
    rule: "ABC-6",
    level: "MUST",
    title: "should_compress returns a boolean without throwing, with and without an argument",
    scenarios: [],
    probes: ["usage"],
    evaluate(runs) {
      const asks = calls(runs, "should_compress");
      if (asks.length === 0) return indeterminate("the usage probe recorded no should_compress call");
      for (const ask of asks) {
        if (ask.event.resultKind !== "boolean") {
          const what = ask.event.resultKind === "error" ? `threw ${ask.event.error}` : `returned a ${ask.event.resultKind}`;
          return fail(`should_compress(${ask.detail["case"] === "no-argument" ? "" : String(ask.detail["prompt_tokens"])}) ${what}`, [evidenceOf(ask.source, ask.event, String(ask.detail["case"]))]);
        }
      }
      return pass(`${asks.length} answers, all booleans`);
    },
  },
  {
    id: "ABC-7/threshold-answer",
    rule: "ABC-7",
    level: "SHOULD",
    title: "unblocked, should_compress is true at the threshold and false well below it",
    scenarios: [],
    probes: ["usage"],
    evaluate(runs) {
      const asks = calls(runs, "should_compress", (d) => typeof d["prompt_tokens"] === "number");
      if (asks.length === 0) return indeterminate("the usage probe recorded no should_compress(tokens) call");
      if (asks.some((ask) => ask.detail["blocked"] === true)) return skipped("the engine reports a block reason, so its answers may differ");
      for (const ask of asks) {
        if (ask.event.resultKind !== "boolean") continue;
        const want = ask.detail["case"] !== "well-below";
        if (ask.detail["output"] !== want) {
          return fail(`should_compress(${String(ask.detail["prompt_tokens"])}) answered ${String(ask.detail["output"])} with threshold_tokens ${String(ask.detail["threshold_tokens"])}`, [evidenceOf(ask.source, ask.event, String(ask.detail["case"]))]);
        }
      }
      return pass("answers follow the threshold");
    },
  },
];

/** Each reads one probe run; under several seeds each seed's run is judged on its own. */
export const basicChecks: Check[] = basicChecksBySeed.map(perSeed);
