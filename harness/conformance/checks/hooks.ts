import { stripPersistenceFields } from "../../contract/persistence-fields.ts";
import { validateSequence, type SequenceFinding } from "../../contract/validate.ts";
import { canonicalJson } from "../../trace/canonical-json.ts";
import type { Check, Evaluation } from "../types.ts";
import { CERTIFY_SCENARIOS, SELECTION_PROBES, TURN_PROBES } from "./sources.ts";
import { calls, evidenceOf, fail, indeterminate, isMessageObject, pass, perSeed, skipped, type Call } from "./helpers.ts";
import { selectionObservations, turnObservations, type SelectionObservation, type TurnObservation } from "./hook-observations.ts";

const listOutput = (c: Call): unknown[] | null => (c.event.resultKind === "list" && Array.isArray(c.detail["output"]) ? (c.detail["output"] as unknown[]) : null);
const wireOf = (message: unknown) => (isMessageObject(message) ? canonicalJson(stripPersistenceFields(message)) : canonicalJson(message));

const INHERITS_SELECT = "the engine inherits the default select_context; the host never calls it";
const INHERITS_TURN = "the engine inherits the default on_turn_complete; the host never calls it";

/** Selections are judged wherever they happen: the probes' calls and every request the host assembled in the scenarios. */
const SELECTION_SCENARIOS = CERTIFY_SCENARIOS;

const where = (o: { label: string; source: string; seed: number }) => `${o.label} (${o.source}, seed ${o.seed})`;
const seedsOf = (all: ReadonlyArray<{ seed: number }>) => {
  const seeds = [...new Set(all.map((o) => o.seed))].sort((a, b) => a - b);
  return `seed${seeds.length === 1 ? "" : "s"} ${seeds.join(", ")}`;
};

/** "19 selections (7 probe calls, 12 host requests; seeds 1, 2): 9 list answers, 4 replacing the request, 1 in-place edit". */
function selectionCoverage(all: readonly SelectionObservation[]): string {
  const probes = all.filter((o) => !o.host).length;
  const lists = all.filter((o) => o.kind === "list").length;
  const replacing = all.filter((o) => o.replaces).length;
  const edits = all.filter((o) => o.editedRequest !== null).length;
  return `${all.length} selections (${probes} probe calls, ${all.length - probes} host requests; ${seedsOf(all)}): ${lists} list answers, ${replacing} replacing the request, ${edits} in-place edits of request_messages`;
}

function failWith(problems: Array<{ o: SelectionObservation | TurnObservation; text: string }>): Evaluation {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : "";
  return fail(`${where(first.o)}: ${first.text}${more}`, problems.map(({ o, text }) => evidenceOf(o.source, o.event, `${where(o)}: ${text}`)));
}

/** A check over every select_context call; skipped when the engine inherits select_context (nothing calls it). */
function selectionCheck(meta: Pick<Check, "id" | "rule" | "level" | "title">, judge: (all: SelectionObservation[]) => Evaluation, probes: readonly string[] = SELECTION_PROBES): Check {
  return {
    ...meta,
    scenarios: SELECTION_SCENARIOS,
    probes,
    evaluate(runs) {
      const all = selectionObservations(runs);
      return all.length === 0 ? skipped(INHERITS_SELECT) : judge(all);
    },
  };
}

/** The list a selection makes the provider see, as the engine decided it: its answer, or the request it edited in place. */
const effective = (o: SelectionObservation): unknown[] | null => o.output ?? o.editedRequest;

const findingKey = (finding: SequenceFinding) => `${finding.kind}:${finding.callId ?? ""}`;

const hookChecksAsWritten: Check[] = [
  selectionCheck({ id: "SEL-6/inputs-unmutated", rule: "SEL-6", level: "MUST", title: "select_context does not mutate conversation_messages or incoming_message (request_messages is the live request: editing it is allowed)" }, (all) => {
    const problems = all.filter((o) => o.mutated.length > 0).map((o) => ({ o, text: `select_context mutated ${o.mutated.join(" and ")}, which are for reference only` }));
    return problems.length > 0 ? failWith(problems) : pass(`${selectionCoverage(all)}; reference arguments untouched in every one`);
  }),
  selectionCheck({ id: "SEL-7/return-shape", rule: "SEL-7", level: "MUST", title: "select_context returns nothing or a non-empty list of message objects a provider accepts" }, (all) => {
    const problems: Array<{ o: SelectionObservation; text: string }> = [];
    for (const o of all) {
      if (o.kind === "null" || o.kind === "undefined") continue;
      if (o.kind === "error") problems.push({ o, text: `select_context threw: ${o.error}` });
      else if (o.kind !== "list") problems.push({ o, text: `select_context returned a ${o.kind === "non-list" ? "value that is not a list" : o.kind}` });
      else if (o.refused !== null) problems.push({ o, text: o.host ? o.refused : `the selection holds a message a provider refuses: ${o.refused}` });
      else if (o.output !== null && o.output.length === 0) problems.push({ o, text: "select_context returned an empty list" });
      else if (o.output !== null && !o.output.every(isMessageObject)) problems.push({ o, text: `element ${o.output.findIndex((m) => !isMessageObject(m))} of the selection is not a message object` });
    }
    return problems.length > 0 ? failWith(problems) : pass(`${selectionCoverage(all)}; every answer well-formed`);
  }),
  selectionCheck({ id: "SEL-8/stable-selection", rule: "SEL-8", level: "SHOULD", title: "asked again with nothing changed, select_context gives the same or an equal list" }, (all) => {
    let pairs = 0;
    let nonTrivial = 0;
    const problems: Array<{ o: SelectionObservation; text: string }> = [];
    const previous = new Map<string, SelectionObservation>();
    for (const o of all) {
      const key = `${o.seed}/${o.source}/${o.inputKey}`;
      const earlier = previous.get(key);
      previous.set(key, o);
      if (earlier === undefined || o.inputKey.endsWith("/")) continue;
      pairs++;
      if (earlier.kind === "list" || o.kind === "list") nonTrivial++;
      if (earlier.answerKey !== o.answerKey) problems.push({ o, text: `the same input gave a different selection than ${earlier.label} did` });
    }
    if (problems.length > 0) return failWith(problems);
    if (pairs === 0) return indeterminate(`${selectionCoverage(all)}; no input was selected twice`);
    if (nonTrivial === 0) return indeterminate(`${selectionCoverage(all)}; ${pairs} repeated inputs, but the engine never answered one with a list, so stability was never at stake`);
    return pass(`${selectionCoverage(all)}; ${pairs} repeated inputs gave equal selections (${nonTrivial} with a list answer)`);
  }),
  selectionCheck({ id: "SEL-9/valid-selection", rule: "SEL-9", level: "SHOULD", title: "a selection is a valid request on its own, so the sanitizers need not repair it" }, (all) => {
    const problems: Array<{ o: SelectionObservation; text: string }> = [];
    let judged = 0;
    for (const o of all) {
      if (o.repairs !== null && o.repairs.length > 0) problems.push({ o, text: `the host's sanitizers had to repair the selection: ${o.repairs.join("; ")}` });
      const list = effective(o);
      if (o.host) judged += o.kind === "list" ? 1 : 0;
      if (list === null || !list.every(isMessageObject)) continue;
      judged++;
      const had = new Set(validateSequence(o.request ?? []).map(findingKey));
      const found = validateSequence(list).find((finding) => finding.severity === "error" && !had.has(findingKey(finding)));
      if (found) problems.push({ o, text: `${o.output === null ? "the request as edited in place" : "the selection"}: ${found.detail}` });
    }
    if (problems.length > 0) return failWith(problems);
    if (judged === 0) return indeterminate(`${selectionCoverage(all)}; the engine never selected a list, so no selection could be judged`);
    return pass(`${selectionCoverage(all)}; ${judged} selections valid on their own`);
  }),
  selectionCheck(
    { id: "CACHE-2/stable-prefix", rule: "CACHE-2", level: "SHOULD", title: "a replacing selection keeps its earlier prefix as the conversation grows, unless its routing really changes" },
    (all) => {
      const grow = all.filter((o) => !o.host && o.label.startsWith("grow-"));
      let steps = 0;
      const breaks: SelectionObservation[] = [];
      for (let i = 1; i < grow.length; i++) {
        const [previous, current] = [grow[i - 1]!, grow[i]!];
        if (previous.seed !== current.seed || previous.output === null || current.output === null) continue;
        steps++;
        const [a, b] = [previous.output.map(wireOf), current.output.map(wireOf)];
        if (a.length > b.length || a.some((message, index) => message !== b[index])) breaks.push(current);
      }
      if (steps === 0) return indeterminate(`${selectionCoverage(all)}; the engine never replaced the request on two growing turns in a row, so its prefix was never at stake`);
      if (steps >= 2 && breaks.length === steps) return failWith(breaks.map((o) => ({ o, text: "the selection's prefix changed on every growing turn" })));
      return pass(`prefix kept on ${steps - breaks.length} of ${steps} growing turns`);
    },
    ["selection"],
  ),
  {
    id: "OTC-4/messages-read-only",
    rule: "OTC-4",
    level: "MUST",
    title: "on_turn_complete treats its messages as read-only",
    scenarios: SELECTION_SCENARIOS,
    probes: TURN_PROBES,
    evaluate(runs) {
      const all = turnObservations(runs).filter((o) => o.modified !== null);
      if (all.length === 0) return skipped(INHERITS_TURN);
      const problems = all.filter((o) => o.modified === true).map((o) => ({ o, text: "on_turn_complete modified the transcript it was shown" }));
      if (problems.length > 0) return failWith(problems);
      const probes = all.filter((o) => !o.host).length;
      return pass(`${all.length} transcripts (${probes} probe calls, ${all.length - probes} host turns; ${seedsOf(all)}) left untouched`);
    },
  },
  {
    id: "OTC-5/null-usage",
    rule: "OTC-5",
    level: "MUST",
    title: "on_turn_complete handles usage = null from an interrupted turn",
    scenarios: SELECTION_SCENARIOS,
    probes: TURN_PROBES,
    evaluate(runs) {
      const all = turnObservations(runs);
      if (all.length === 0) return skipped(INHERITS_TURN);
      const interrupted = all.filter((o) => o.usageNull);
      if (interrupted.length === 0) return indeterminate(`${all.length} on_turn_complete calls, none with usage null`);
      const problems = interrupted.filter((o) => o.event.resultKind === "error" || o.event.resultKind === "timeout").map((o) => ({ o, text: `on_turn_complete with usage null threw: ${o.event.error}` }));
      if (problems.length > 0) return failWith(problems);
      return pass(`${interrupted.length} calls with usage null (${interrupted.filter((o) => o.host).length} from interrupted host turns; ${seedsOf(interrupted)}) handled`);
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

/** TOOL-1 and TOOL-2 read one tools-probe run each: judged seed by seed. */
export const hookChecks: Check[] = hookChecksAsWritten.map((check) => (check.rule === "TOOL-1" || check.rule === "TOOL-2" ? perSeed(check) : check));
