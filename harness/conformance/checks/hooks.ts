import { stripPersistenceFields } from "../../contract/persistence-fields.ts";
import { validateSequence } from "../../contract/validate.ts";
import { canonicalJson } from "../../trace/canonical-json.ts";
import type { Check, CheckRun, Evaluation } from "../types.ts";
import { calls, evidenceOf, fail, indeterminate, isMessageObject, pass, skipped, type Call } from "./helpers.ts";

const INHERITS_SELECT = "the engine inherits the default select_context; the host never calls it";
const INHERITS_TURN = "the engine inherits the default on_turn_complete; the host never calls it";

const selections = (runs: readonly CheckRun[]) => calls(runs, "select_context", (d) => typeof d["case"] === "string" && "before" in d);
const listOutput = (c: Call): unknown[] | null => (c.event.resultKind === "list" && Array.isArray(c.detail["output"]) ? (c.detail["output"] as unknown[]) : null);
const wire = (list: readonly unknown[]) => list.map((m) => (isMessageObject(m) ? canonicalJson(stripPersistenceFields(m)) : canonicalJson(m)));

/** A check over the selection probe's calls; skipped when the engine inherits select_context. */
function selectionCheck(meta: Pick<Check, "id" | "rule" | "level" | "title">, judge: (all: Call[]) => Evaluation): Check {
  return {
    ...meta,
    scenarios: [],
    probes: ["selection"],
    evaluate(runs) {
      const all = selections(runs);
      return all.length === 0 ? skipped(INHERITS_SELECT) : judge(all);
    },
  };
}

export const hookChecks: Check[] = [
  selectionCheck({ id: "SEL-6/inputs-unmutated", rule: "SEL-6", level: "MUST", title: "select_context does not mutate the request, conversation_messages or incoming_message" }, (all) => {
    for (const c of all) {
      const before = c.detail["before"] as Record<string, string>;
      const after = c.detail["after"] as Record<string, string> | undefined;
      if (!after) continue;
      const changed = Object.keys(before).filter((key) => before[key] !== after[key]);
      if (changed.length > 0) return fail(`select_context (${String(c.detail["case"])}) mutated ${changed.join(", ")}`, [evidenceOf(c.source, c.event, "digests before and after differ")]);
    }
    return pass(`${all.length} selections left their inputs untouched`);
  }),
  selectionCheck({ id: "SEL-7/return-shape", rule: "SEL-7", level: "MUST", title: "select_context returns nothing or a non-empty list of message objects" }, (all) => {
    for (const c of all) {
      const kind = c.event.resultKind;
      const evidence = [evidenceOf(c.source, c.event, String(c.detail["case"]))];
      if (kind === "null" || kind === "undefined") continue;
      if (kind === "error") return fail(`select_context threw: ${c.event.error}`, evidence);
      const list = listOutput(c);
      if (list === null) return fail(`select_context returned a ${kind}`, evidence);
      if (list.length === 0) return fail("select_context returned an empty list", evidence);
      if (!list.every(isMessageObject)) return fail("select_context returned a list holding a non-object", evidence);
    }
    return pass(`${all.length} answers well-formed`);
  }),
  selectionCheck({ id: "SEL-8/stable-selection", rule: "SEL-8", level: "SHOULD", title: "asked again with nothing changed, select_context gives the same or an equal list" }, (all) => {
    let pairs = 0;
    for (let i = 1; i < all.length; i++) {
      const [previous, current] = [all[i - 1]!, all[i]!];
      if (canonicalJson(previous.detail["request"]) !== canonicalJson(current.detail["request"])) continue;
      pairs++;
      if (canonicalJson(previous.detail["output"] ?? null) !== canonicalJson(current.detail["output"] ?? null)) {
        return fail(`the same input gave a different selection (${String(previous.detail["case"])} vs ${String(current.detail["case"])})`, [
          evidenceOf(previous.source, previous.event, "first answer"),
          evidenceOf(current.source, current.event, "second answer"),
        ]);
      }
    }
    return pairs > 0 ? pass(`${pairs} repeated inputs gave equal selections`) : indeterminate("no repeated selection input recorded");
  }),
  selectionCheck({ id: "SEL-9/valid-selection", rule: "SEL-9", level: "SHOULD", title: "a selection is a valid request on its own" }, (all) => {
    for (const c of all) {
      const list = listOutput(c);
      if (!list || !list.every(isMessageObject)) continue;
      const problem = validateSequence(list).find((finding) => finding.severity === "error");
      if (problem) return fail(`selection ${String(c.detail["case"])}: ${problem.kind} at index ${problem.index}: ${problem.detail}`, [evidenceOf(c.source, c.event, problem.kind)]);
    }
    return pass(`${all.length} selections valid`);
  }),
  selectionCheck(
    { id: "CACHE-2/stable-prefix", rule: "CACHE-2", level: "SHOULD", title: "a replacing selection keeps its earlier prefix as the conversation grows, unless its routing really changes" },
    (all) => {
      const grow = all.filter((c) => String(c.detail["case"]).startsWith("grow-"));
      let steps = 0;
      const breaks: Call[] = [];
      for (let i = 1; i < grow.length; i++) {
        const previous = listOutput(grow[i - 1]!);
        const current = listOutput(grow[i]!);
        if (!previous || !current) continue;
        steps++;
        const [a, b] = [wire(previous), wire(current)];
        if (a.length > b.length || a.some((message, index) => message !== b[index])) breaks.push(grow[i]!);
      }
      if (steps === 0) return pass("the engine never replaced the request while it grew");
      if (steps >= 2 && breaks.length === steps) {
        return fail(`the selection's prefix changed on every one of ${steps} turns`, breaks.map((c) => evidenceOf(c.source, c.event, "prefix broken")));
      }
      return pass(`prefix kept on ${steps - breaks.length} of ${steps} growing turns`);
    },
  ),
  {
    id: "OTC-4/messages-read-only",
    rule: "OTC-4",
    level: "MUST",
    title: "on_turn_complete treats its messages as read-only",
    scenarios: [],
    probes: ["turn-complete"],
    evaluate(runs) {
      const all = calls(runs, "on_turn_complete", (d) => "before" in d);
      if (all.length === 0) return skipped(INHERITS_TURN);
      for (const c of all) {
        if ("after" in c.detail && c.detail["after"] !== c.detail["before"]) return fail(`on_turn_complete (${String(c.detail["case"])}) modified the transcript it was shown`, [evidenceOf(c.source, c.event, "digest changed")]);
      }
      return pass(`${all.length} transcripts left untouched`);
    },
  },
  {
    id: "OTC-5/null-usage",
    rule: "OTC-5",
    level: "MUST",
    title: "on_turn_complete handles usage = null from an interrupted turn",
    scenarios: [],
    probes: ["turn-complete"],
    evaluate(runs) {
      const all = calls(runs, "on_turn_complete", (d) => d["case"] === "interrupted");
      if (all.length === 0) return skipped(INHERITS_TURN);
      const thrown = all.find((c) => c.event.resultKind === "error" || c.event.resultKind === "timeout");
      if (thrown) return fail(`on_turn_complete with usage null threw: ${thrown.event.error}`, [evidenceOf(thrown.source, thrown.event, "interrupted turn")]);
      return pass("a null usage is handled");
    },
  },
  {
    id: "TOOL-1/tool-schemas",
    rule: "TOOL-1",
    level: "MUST",
    title: "get_tool_schemas lists {name, description, parameters} with unique non-empty names and object schemas",
    scenarios: [],
    probes: ["tools"],
    evaluate(runs) {
      const [c] = calls(runs, "get_tool_schemas", (d) => d["case"] === "schemas");
      if (!c) return indeterminate("the tools probe recorded no get_tool_schemas call");
      const evidence = [evidenceOf(c.source, c.event, "schemas")];
      if (c.event.resultKind === "error") return fail(`get_tool_schemas threw: ${c.event.error}`, evidence);
      const list = listOutput(c);
      if (list === null) return fail(`get_tool_schemas returned a ${c.event.resultKind}, not a list`, evidence);
      const names = new Set<string>();
      for (const [index, schema] of list.entries()) {
        if (!isMessageObject(schema)) return fail(`schema ${index} is not an object`, evidence);
        const { name, description, parameters } = schema as Record<string, unknown>;
        if (typeof name !== "string" || name === "") return fail(`schema ${index} has no name`, evidence);
        if (names.has(name)) return fail(`tool name "${name}" appears twice`, evidence);
        names.add(name);
        if (typeof description !== "string") return fail(`tool "${name}" has no description`, evidence);
        if (parameters === null || typeof parameters !== "object" || Array.isArray(parameters) || (parameters as { type?: unknown }).type !== "object") {
          return fail(`tool "${name}" parameters are not a JSON-Schema object`, evidence);
        }
      }
      return pass(list.length === 0 ? "no engine tools" : `${list.length} schemas well-formed`, evidence);
    },
  },
  {
    id: "TOOL-2/json-results",
    rule: "TOOL-2",
    level: "MUST",
    title: "handle_tool_call answers a JSON string for every call, unknown names and malformed arguments included",
    scenarios: [],
    probes: ["tools"],
    evaluate(runs) {
      const all = calls(runs, "handle_tool_call", (d) => typeof d["case"] === "string");
      if (all.length === 0) return indeterminate("the tools probe recorded no handle_tool_call");
      for (const c of all) {
        const evidence = [evidenceOf(c.source, c.event, String(c.detail["case"]))];
        if (c.event.resultKind === "error" || c.event.resultKind === "timeout") return fail(`handle_tool_call(${String(c.detail["case"])}) threw: ${c.event.error}`, evidence);
        const output = c.detail["output"];
        if (typeof output !== "string") return fail(`handle_tool_call(${String(c.detail["case"])}) returned a ${c.event.resultKind}, not a string`, evidence);
        try {
          JSON.parse(output);
        } catch {
          return fail(`handle_tool_call(${String(c.detail["case"])}) returned text that is not JSON`, evidence);
        }
      }
      return pass(`${all.length} calls answered with JSON`);
    },
  },
];
