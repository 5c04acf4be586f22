import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { estimateTokensRough, type CompactionEvent, type ContextEngine, type EngineCallEvent, type Message, type Scenario, type TraceEvent } from "ctxbench";
import type { CheckRun } from "../../harness/conformance/types.ts";

/**
 * The reference oracle of the mutation test: which rules an engine breaks, decided without the
 * certifier's checks — its own reading of the played traces (simple, strict definitions written
 * from RULES.md, sharing no code with harness/conformance/checks) and its own experiments: it
 * re-runs compress on each special input with the special feature taken away to decide whether
 * the feature caused a defect, and drives the other hooks directly.
 */
export interface Violation {
  rule: string;
  where: string;
  what: string;
}

const ROLES = new Set(["system", "user", "assistant", "tool"]);
const PART_FIELD: Record<string, (part: Record<string, unknown>) => boolean> = {
  text: (part) => typeof part["text"] === "string",
  image_url: (part) => typeof (part["image_url"] as { url?: unknown } | undefined)?.url === "string",
};

/** Keys sorted, so two equal messages always print the same. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stable((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const WIRE_ONLY = (message: Message) => Object.fromEntries(Object.entries(message).filter(([key]) => !key.startsWith("_") && key !== "message_uid" && key !== "timestamp"));
const text = (message: unknown): string => {
  const content = (message as Message | null)?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : "")).join("\n");
  return "";
};
const callsOf = (message: Message) => (Array.isArray(message.tool_calls) ? message.tool_calls : []);

/** A message a provider accepts on its own; why not, or null. */
function messageProblem(message: unknown): { rule: string; what: string } | null {
  if (message === null || typeof message !== "object" || Array.isArray(message)) return { rule: "CMP-1", what: "an element is not an object" };
  const record = message as Message;
  if (!ROLES.has(record.role as string)) return { rule: "CMP-1", what: `role ${JSON.stringify(record.role)}` };
  const calls = record.tool_calls;
  const content = record.content;
  if (typeof content !== "string") {
    if (content === null || content === undefined) {
      if (!(record.role === "assistant" && Array.isArray(calls) && calls.length > 0)) return { rule: "CMP-1", what: "null content outside an assistant tool-call message" };
    } else if (!Array.isArray(content)) return { rule: "CMP-1", what: "content is neither text nor a list of parts" };
    else for (const part of content as unknown[]) {
      const type = (part as { type?: unknown } | null)?.type;
      if (typeof type !== "string") return { rule: "CMP-1", what: "a content part has no type" };
      if (PART_FIELD[type] && !PART_FIELD[type]!(part as Record<string, unknown>)) return { rule: "CMP-1", what: `a ${type} part lacks its field` };
    }
  }
  if (calls !== undefined && calls !== null) {
    if (!Array.isArray(calls) || calls.length === 0) return { rule: "CMP-2", what: "tool_calls is not a non-empty list" };
    for (const call of calls as unknown[]) {
      const c = call as { id?: unknown; function?: { name?: unknown; arguments?: unknown } } | null;
      if (typeof c?.id !== "string" || typeof c.function?.name !== "string" || typeof c.function.arguments !== "string") return { rule: "CMP-2", what: "a tool call lacks its id, name or string arguments" };
    }
  }
  if (record.role === "tool" && typeof record.tool_call_id !== "string") return { rule: "CMP-2", what: "a tool message without tool_call_id" };
  return null;
}

/** Pairing as a provider checks it: a tool message answers one of the calls of the assistant whose results block it is in. */
function pairingProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  let pending: string[] | null = null;
  const close = () => {
    for (const id of pending ?? []) problems.push(`unanswered:${id}`);
    pending = null;
  };
  for (const message of messages) {
    if (message.role === "tool") {
      const at = pending === null ? -1 : pending.indexOf(String(message.tool_call_id));
      if (at < 0) problems.push(`orphan:${String(message.tool_call_id)}`);
      else pending!.splice(at, 1);
      continue;
    }
    close();
    const ids = callsOf(message).map((call) => String(call.id));
    if (message.role === "assistant" && ids.length > 0) pending = ids;
  }
  close();
  return problems;
}

const parses = (value: string) => {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
};

/** MUST and SHOULD output rules of one compress answer (provider view). */
export function outputViolations(input: readonly Message[], output: unknown, threshold: number | null = null): Array<{ rule: string; what: string }> {
  if (!Array.isArray(output)) return [{ rule: "CMP-1", what: "not a list" }];
  const found: Array<{ rule: string; what: string }> = [];
  const copies = new Set(input.map((message) => JSON.stringify(message)));
  for (const message of output) {
    if (copies.has(JSON.stringify(message) ?? "")) continue;
    const problem = messageProblem(message);
    if (problem) found.push(problem);
    if (message && typeof message === "object") {
      const ids = callsOf(message as Message).map((call) => call?.id);
      const repeatedInInput = input.some((m) => new Set(callsOf(m).map((c) => c.id)).size < callsOf(m).length);
      if (new Set(ids).size < ids.length && !repeatedInInput) found.push({ rule: "CMP-2", what: "a call id repeats inside one message" });
    }
  }
  if (!output.every((m) => m !== null && typeof m === "object" && !Array.isArray(m))) return found;
  const messages = output as Message[];
  const had = new Set(pairingProblems(input));
  for (const problem of pairingProblems(messages)) if (!had.has(problem)) found.push({ rule: "CMP-2", what: `pairing: ${problem}` });
  const inputArgs = new Map(input.flatMap((m) => callsOf(m).map((c) => [c.id, c.function?.arguments] as const)));
  for (const call of messages.flatMap(callsOf)) {
    const before = inputArgs.get(call?.id);
    if (typeof call?.function?.arguments === "string" && typeof before === "string" && parses(before) && !parses(call.function.arguments)) found.push({ rule: "CMP-2", what: "arguments no longer JSON" });
  }
  if (input[0]?.role === "system" && !(messages[0]?.role === "system" && text(messages[0]).includes(text(input[0])))) found.push({ rule: "CMP-3", what: "the system prompt is not first with all its text" });
  if (estimateTokensRough(messages) > estimateTokensRough(input)) found.push({ rule: "CMP-4", what: "the estimate grew" });
  const latest = input.findLast((m) => m.role === "user");
  if (latest && !messages.some((m) => text(m).includes(text(latest)))) found.push({ rule: "CMP-5", what: "the latest user message is gone" });
  if (threshold !== null && threshold > 0 && estimateTokensRough(input) > threshold && estimateTokensRough(messages) >= threshold) found.push({ rule: "CMP-5", what: "still over the threshold" });
  // An unchanged message keeps a uid it had; one whose text also occurs without a uid may be that copy.
  const uidsOf = new Map<string, Array<string | undefined>>();
  for (const m of input) {
    const wire = JSON.stringify(WIRE_ONLY(m));
    uidsOf.set(wire, [...(uidsOf.get(wire) ?? []), typeof m.message_uid === "string" ? m.message_uid : undefined]);
  }
  for (const m of messages) {
    const uids = uidsOf.get(JSON.stringify(WIRE_ONLY(m)));
    if (uids && !uids.includes(undefined) && !uids.includes(m.message_uid as string)) found.push({ rule: "CMP-8", what: "an unchanged message lost its uid" });
  }
  return found;
}

const MUST_OUTPUT = new Set(["CMP-1", "CMP-2", "CMP-3", "CMP-4"]);

interface Observed {
  where: string;
  input: Message[];
  output: unknown;
  threw: string | null;
  focus: string | null;
  threshold: number | null;
  contextLength: number;
}

function observed(run: CheckRun): Observed[] {
  const found: Observed[] = [];
  const where = (label: string) => `${label} (${run.source}, seed ${run.seed})`;
  for (const event of run.trace) {
    if (event.type === "engine-call" && event.hook === "compress" && Array.isArray(event.detail?.["input"]) && event.detail["discarded"] !== true) {
      const detail = event.detail;
      const threw = event.resultKind === "error" ? String(event.error) : null;
      found.push({ where: where(String(detail["case"])), input: detail["input"] as Message[], output: threw ? null : event.resultKind === "list" ? detail["output"] : "not a list", threw, focus: (detail["focus_topic"] as string | null) ?? null, threshold: (detail["threshold_tokens"] as number) ?? null, contextLength: event.stateAfter.context_length });
    }
    if (event.type === "compaction" && event.outcome !== "timeout" && event.outcome !== "busy") {
      const pass = event as CompactionEvent;
      const threw = pass.outcome === "error" ? String(pass.error) : null;
      found.push({ where: where(`${pass.trigger} pass`), input: pass.input, output: threw ? null : pass.output === null && pass.outcome === "refused-invalid" ? "not storable" : pass.output, threw, focus: pass.focus_topic, threshold: null, contextLength: 8000 });
    }
  }
  return found;
}

/** Every call occurrence its own id, carried to the result of that occurrence (results follow their assistant). */
function occurrenceRename(input: readonly Message[]): { input: Message[]; byUid: Map<string, Message> } {
  const renamed: Message[] = [];
  let block: Array<{ id: string; occurrence: string; used: boolean }> = [];
  let counter = 0;
  // Same length as the original id, so a size-driven engine sees the same sizes.
  const occurrence = (id: string) => {
    const tail = (counter++).toString(32).padStart(3, "0");
    return id.length > tail.length ? id.slice(0, id.length - tail.length) + tail : `o${tail}`;
  };
  input.forEach((message) => {
    if (message.role === "assistant" && callsOf(message).length > 0) {
      block = callsOf(message).map((call) => ({ id: call.id, occurrence: occurrence(call.id), used: false }));
      renamed.push({ ...message, tool_calls: callsOf(message).map((call, position) => ({ ...call, id: block[position]!.occurrence })) });
      return;
    }
    if (message.role === "tool") {
      const entry = block.find((candidate) => candidate.id === message.tool_call_id && !candidate.used);
      if (entry) {
        entry.used = true;
        renamed.push({ ...message, tool_call_id: entry.occurrence });
        return;
      }
    }
    if (message.role !== "tool") block = [];
    renamed.push(message);
  });
  const byUid = new Map<string, Message>();
  for (const message of renamed) if (typeof message.message_uid === "string") byUid.set(message.message_uid, message);
  return { input: renamed, byUid };
}

const hasRepeatedIds = (input: readonly Message[]) => {
  const ids = input.flatMap((m) => callsOf(m).map((c) => c.id));
  return new Set(ids).size < ids.length;
};

/** What the features are, and the same input without each. */
const FEATURES: Array<{ rule: string; has: (input: Message[], o: Observed) => boolean; without: (input: Message[]) => Message[] }> = [
  { rule: "TCU-3", has: hasRepeatedIds, without: (input) => occurrenceRename(input).input },
  { rule: "CMP-9", has: (input) => input.at(-1)?.role === "user" && typeof input.at(-1)?.message_uid !== "string", without: (input) => [...input.slice(0, -1), { ...input.at(-1)!, message_uid: "c".repeat(32) }] },
  {
    rule: "UID-2",
    has: (input) => input.slice(0, -1).some((m) => typeof m.message_uid !== "string") || (input.at(-1)?.role !== "user" && typeof input.at(-1)?.message_uid !== "string"),
    without: (input) => input.map((m, i) => (typeof m.message_uid === "string" || (i === input.length - 1 && m.role === "user") ? m : { ...m, message_uid: (i + 1).toString(16).padStart(32, "a") })),
  },
  {
    rule: "UID-7",
    has: (input) => new Set(input.flatMap((m) => (typeof m.message_uid === "string" ? [m.message_uid] : []))).size < input.filter((m) => typeof m.message_uid === "string").length,
    without: (input) => input.filter((m, i) => typeof m.message_uid !== "string" || !input.slice(i + 1).some((later) => later.message_uid === m.message_uid)),
  },
  { rule: "CMP-6", has: (_input, o) => o.focus !== null, without: (input) => input },
];

const broken = (input: readonly Message[], output: unknown, threw: string | null) => threw !== null || outputViolations(input, output).some((v) => MUST_OUTPUT.has(v.rule));

/** New pairing problems of a list answer, as a provider sees them. */
function pairingBroken(input: readonly Message[], output: unknown): boolean {
  if (!Array.isArray(output) || !output.every((m) => m !== null && typeof m === "object")) return false;
  const had = new Set(pairingProblems(input));
  return pairingProblems(output as Message[]).some((problem) => !had.has(problem));
}

/** compress of a fresh engine on an input; the answer, or what it threw. */
function rerun(create: () => ContextEngine, o: Observed, input: Message[], focus: string | null): { output: unknown; threw: string | null } {
  const engine = create();
  engine.update_model({ model: "oracle", context_length: o.contextLength || 8000 });
  try {
    return { output: engine.compress(structuredClone(input), null, focus) as unknown, threw: null };
  } catch (error) {
    return { output: null, threw: String(error) };
  }
}

/** Pairing under the true pairing of call occurrences: the output traced back to the input by uid, ids renamed to occurrences. */
function truePairingBroken(input: readonly Message[], output: unknown): boolean {
  if (!Array.isArray(output)) return false;
  const { input: renamedInput, byUid } = occurrenceRename(input);
  const traced = output.map((message) => {
    const uid = (message as Message | null)?.message_uid;
    const original = typeof uid === "string" ? byUid.get(uid) : undefined;
    if (!original || !message || typeof message !== "object") return message as Message;
    const m = message as Message;
    if (m.role === "tool") return { ...m, tool_call_id: String(original.tool_call_id) };
    if (callsOf(m).length > 0 && callsOf(original).length === callsOf(m).length) return { ...m, tool_calls: callsOf(original) };
    return m;
  });
  const had = new Set(pairingProblems(renamedInput));
  return pairingProblems(traced).some((problem) => !had.has(problem));
}

/** A run's observations with their output violations: they depend on the run alone, and tidy's runs are shared by many mutants. */
const judgedRuns = new WeakMap<CheckRun, Array<{ o: Observed; violations: Array<{ rule: string; what: string }> }>>();

function judgedRun(run: CheckRun) {
  let judged = judgedRuns.get(run);
  if (judged === undefined) {
    judged = observed(run).map((o) => ({ o, violations: o.threw === null ? outputViolations(o.input, o.output, o.threshold) : [] }));
    judgedRuns.set(run, judged);
  }
  return judged;
}

function compressViolations(create: () => ContextEngine, runs: readonly CheckRun[]): Violation[] {
  const found: Violation[] = [];
  for (const run of runs) {
    for (const { o, violations } of judgedRun(run)) {
      for (const v of violations) found.push({ rule: v.rule, where: o.where, what: v.what });
      const isBroken = o.threw !== null || violations.some((v) => MUST_OUTPUT.has(v.rule));
      for (const feature of FEATURES) {
        if (!feature.has(o.input, o)) continue;
        // TCU-3 is about pairing (and failing outright); the other features' rules about working at all.
        const pairingOnly = feature.rule === "TCU-3";
        const brokenHere = pairingOnly ? o.threw !== null || truePairingBroken(o.input, o.output) : isBroken;
        if (!brokenHere) continue;
        const without = feature.without(o.input);
        const again = rerun(create, o, without, feature.rule === "CMP-6" ? null : o.focus);
        const fineWithout = pairingOnly ? again.threw === null && !pairingBroken(without, again.output) : !broken(without, again.output, again.threw);
        if (fineWithout) found.push({ rule: feature.rule, where: o.where, what: `broken with the feature, fine without it${o.threw ? ` (threw ${o.threw})` : ""}` });
      }
      if (o.threw === null && Array.isArray(o.output)) {
        for (const [uid, rows] of groupBy(o.input.filter((m) => typeof m.message_uid === "string"), (m) => m.message_uid!)) {
          if (rows.length < 2) continue;
          const kept = (o.output as Message[]).filter((m) => m?.message_uid === uid).map(text);
          if (kept.length > 0 && !kept.includes(text(rows.at(-1))) && kept.some((t) => rows.slice(0, -1).map(text).includes(t))) found.push({ rule: "UID-7", where: o.where, what: "kept an earlier version of a shared uid" });
        }
      }
      if (o.threw !== null && !FEATURES.some((f) => f.has(o.input, o))) found.push({ rule: "CMP-1", where: o.where, what: `threw on an ordinary input: ${o.threw}` });
    }
  }
  return found;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** THR-2: a user message of one session (its first 40 characters) in another session's output or request. */
function leakViolations(runs: readonly CheckRun[]): Violation[] {
  const found: Violation[] = [];
  for (const run of runs) {
    const own = new Map<string, Set<string>>();
    const add = (session: string, texts: string[]) => {
      const set = own.get(session) ?? new Set<string>();
      for (const t of texts) if (t.length >= 40) set.add(t.slice(0, 40));
      own.set(session, set);
    };
    if (run.scenario) for (const session of (run.scenario as Scenario).sessions) add(session.id, session.turns.map((turn) => (typeof turn.user === "string" ? turn.user : "")));
    else for (const event of run.trace) if (event.type === "engine-call" && event.hook === "compress" && event.session && Array.isArray(event.detail?.["input"])) add(event.session, (event.detail["input"] as Message[]).filter((m) => m.role === "user").map(text));
    if (own.size < 2) continue;
    const foreign = new Map<string, Array<{ from: string; prefix: string }>>();
    for (const [session] of own) {
      const list: Array<{ from: string; prefix: string }> = [];
      for (const [other, prefixes] of own) if (other !== session) for (const prefix of prefixes) if (!own.get(session)!.has(prefix)) list.push({ from: other, prefix });
      foreign.set(session, list);
    }
    const checked = new Map<string, string | null>();
    for (const event of run.trace) {
      const output = outputOf(event);
      if (!Array.isArray(output) || event.session === null || !foreign.has(event.session)) continue;
      for (const message of output) {
        const body = text(message);
        const cacheKey = `${event.session}\u0000${body}`;
        let hit = checked.get(cacheKey);
        if (hit === undefined) {
          hit = foreign.get(event.session)!.find((entry) => body.includes(entry.prefix))?.prefix ?? null;
          checked.set(cacheKey, hit);
        }
        if (hit !== null) {
          found.push({ rule: "THR-2", where: `${run.source}, seed ${run.seed}`, what: `session ${event.session} shows "${hit}" of another session` });
          break;
        }
      }
    }
  }
  return found;
}

function outputOf(event: TraceEvent): unknown {
  if (event.type === "compaction") return event.output;
  if (event.type === "request") return event.messages;
  if (event.type === "engine-call" && (event.hook === "compress" || event.hook === "select_context")) return (event as EngineCallEvent).detail?.["output"] ?? null;
  return null;
}

/** A conversation of the oracle's own: turns with tool batches, some outputs huge. */
function conversation(turns: number, hugeEvery = 3): Message[] {
  const messages: Message[] = [{ role: "system", content: "You are the oracle's assistant.", message_uid: "0".repeat(32) }];
  let uid = 1;
  const stamp = (m: Message): Message => ({ ...m, message_uid: (uid++).toString(16).padStart(32, "0") });
  for (let turn = 0; turn < turns; turn++) {
    messages.push(stamp({ role: "user", content: `Oracle turn ${turn}: please look at module ${turn} and report what it exports and why it fails.` }));
    const calls = [0, 1].map((k) => ({ id: `oracle_${turn}_${k}`, type: "function" as const, function: { name: "read_file", arguments: JSON.stringify({ path: `src/m${turn}_${k}.ts` }) } }));
    messages.push(stamp({ role: "assistant", content: null, tool_calls: calls }));
    for (const call of calls) messages.push(stamp({ role: "tool", tool_call_id: call.id, content: turn % hugeEvery === 0 ? "x ".repeat(6000) : `export const m${turn} = ${turn};` }));
    messages.push(stamp({ role: "assistant", content: `Module ${turn} exports m${turn}; it fails because of a missing import.` }));
  }
  return messages;
}

function hookViolations(create: () => ContextEngine): Violation[] {
  const found: Violation[] = [];
  const add = (rule: string, what: string) => found.push({ rule, where: "oracle experiment", what });
  const home = mkdtempSync(join(tmpdir(), "ctxbench-oracle-"));
  const engine = () => {
    const made = create();
    made.update_model({ model: "oracle", context_length: 8000 });
    made.on_session_start("oracle", { home, platform: "cli", model: "oracle", context_length: 8000 });
    return made;
  };
  try {
    const transcript = conversation(8);
    const tryCall = (fn: () => unknown): { value?: unknown; threw?: unknown } => {
      try {
        return { value: fn() };
      } catch (threw) {
        return { threw };
      }
    };
    // SEL-6 / SEL-7: a request with huge outputs and one without, reference copies compared after.
    for (const request of [transcript, conversation(2, 99)]) {
      const conversationCopy = structuredClone(request);
      const incoming = structuredClone(request.findLast((m) => m.role === "user")!);
      const answer = tryCall(() => engine().select_context(structuredClone(request), { conversation_messages: conversationCopy, incoming_message: incoming, budget_tokens: 8000 }));
      if (stable(conversationCopy) !== stable(request) || stable(incoming) !== stable(request.findLast((m) => m.role === "user"))) add("SEL-6", "select_context changed a reference argument");
      const value = answer.value;
      if (answer.threw !== undefined || (value !== null && value !== undefined && (!Array.isArray(value) || value.length === 0 || value.some((m) => messageProblem(m) !== null)))) add("SEL-7", "select_context answered something other than nothing or valid messages");
    }
    // OTC-4 / OTC-5.
    const shown = structuredClone(transcript);
    tryCall(() => engine().on_turn_complete(shown, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 }, { turn_id: "oracle:t:1", task_id: "t", api_call_count: 1, interrupted: false, failed: false, turn_exit_reason: "completed" }));
    if (stable(shown) !== stable(transcript)) add("OTC-4", "on_turn_complete changed its transcript");
    if (tryCall(() => engine().on_turn_complete(structuredClone(transcript), null, { turn_id: "oracle:t:2", task_id: "t", api_call_count: 0, interrupted: true, failed: false, turn_exit_reason: "interrupted" })).threw !== undefined) add("OTC-5", "on_turn_complete threw on usage null");
    // TOOL-1 / TOOL-2.
    const schemas = engine().get_tool_schemas();
    for (const name of [...schemas.map((s) => s.name), "oracle_unknown"]) {
      for (const args of [{}, { query: "module" }]) {
        const answer = tryCall(() => engine().handle_tool_call(name, args, { messages: structuredClone(transcript) }));
        if (typeof answer.value !== "string" || !parses(answer.value)) add("TOOL-2", `handle_tool_call(${name}) answered no JSON string`);
      }
    }
    // ABC-5: every completed compress counts once, small input or large.
    const counter = engine();
    for (const input of [transcript.slice(0, 3), transcript]) {
      const before = counter.compression_count;
      if (tryCall(() => counter.compress(structuredClone(input))).threw === undefined && counter.compression_count !== before + 1) add("ABC-5", "a compress call did not count once");
    }
    // LIFE-2: a reset zeroes the counters.
    counter.update_from_response({ prompt_tokens: 7, completion_tokens: 1, total_tokens: 8 });
    counter.on_session_reset();
    if (counter.compression_count !== 0 || counter.last_prompt_tokens !== 0) add("LIFE-2", "on_session_reset left a counter");
    // REG-6: a distinct clone with its own budget.
    const original = engine();
    const clone = original.clone_for_agent();
    if (clone === original) add("REG-6", "clone_for_agent returned the engine itself");
    else {
      clone.update_model({ model: "other", context_length: 32000 });
      if (original.context_length !== 8000) add("REG-6", "the clone's budget is the original's");
    }
    // REG-5: selected as its directory's name.
    if (engine().name !== "tidy") add("REG-5", `name ${JSON.stringify(engine().name)} is not the directory name "tidy"`);
    // THR-4: a pass the host discards leaves nothing behind.
    const quiet = mkdtempSync(join(tmpdir(), "ctxbench-oracle-pass-"));
    const passEngine = create();
    passEngine.update_model({ model: "oracle", context_length: 8000 });
    passEngine.on_session_start("oracle-pass", { home: quiet, platform: "cli", model: "oracle", context_length: 8000 });
    const abort = new AbortController();
    abort.abort();
    tryCall(() => passEngine.compress(structuredClone(transcript), null, null, { signal: abort.signal }));
    if (readdirSync(quiet).length > 0) add("THR-4", "a discarded pass wrote to the engine's home");
    rmSync(quiet, { recursive: true, force: true });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return found;
}

/** Every rule the engine breaks, with where the oracle saw it. */
export function oracleViolations(create: () => ContextEngine, runs: readonly CheckRun[]): Violation[] {
  return [...compressViolations(create, runs), ...leakViolations(runs), ...hookViolations(create)];
}
