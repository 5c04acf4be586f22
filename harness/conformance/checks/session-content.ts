import type { TraceEvent } from "../../trace/events.ts";
import type { CheckRun } from "../types.ts";

/**
 * THR-2 by content: what of one session appears in another's output. Each session's own text is
 * what the host (or the probe) gave it — the scenario's script for that session, the probe's
 * inputs — never what the engine wrote, so an engine's own templates are nobody's content. Text
 * two sessions both have (a system prompt, a file both read) is shared and proves nothing. A run
 * of SHINGLE_WORDS consecutive words of one session's own text found in another session's output
 * is a leak.
 */
export const SHINGLE_WORDS = 8;

export interface Leak {
  event: TraceEvent;
  /** The session whose output shows it. */
  session: string;
  /** The session whose text it is. */
  from: string;
  /** The words, as evidence. */
  excerpt: string;
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

function shingles(text: string): string[] {
  const list = words(text);
  const found: string[] = [];
  for (let index = 0; index + SHINGLE_WORDS <= list.length; index++) found.push(list.slice(index, index + SHINGLE_WORDS).join(" "));
  return found;
}

/** Every string inside a value (message content, parts, tool-call arguments), joined by line breaks so words never run across two of them. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value !== null && typeof value === "object") for (const [key, item] of Object.entries(value)) if (!key.startsWith("_") && key !== "message_uid") strings(item, out);
  return out;
}

/** Each session's own text in a run: the scenario's script per session, or the probe's inputs per session. */
function ownText(run: CheckRun): Map<string, string[]> {
  const own = new Map<string, string[]>();
  const add = (session: string, value: unknown) => own.set(session, [...(own.get(session) ?? []), ...strings(value)]);
  if (run.scenario !== null) {
    for (const session of run.scenario.sessions) {
      add(session.id, session.systemPrompt);
      for (const turn of session.turns) {
        add(session.id, turn.user);
        for (const step of turn.steps) {
          add(session.id, step.content);
          for (const call of step.toolCalls ?? []) add(session.id, [call.arguments, call.result]);
        }
      }
    }
    for (const step of run.scenario.schedule) {
      if (step.kind !== "event") continue;
      const event = step.event;
      if (event.type === "legacy-write") add(step.session, event.messages);
      if (event.type === "content-rewrite" || event.type === "duplicate-row") add(step.session, event.content);
    }
    for (const legacy of run.scenario.legacyStore?.sessions ?? []) add(legacy.id, legacy.messages);
    return own;
  }
  for (const event of run.trace) {
    if (event.type !== "engine-call" || event.session === null || event.detail === undefined) continue;
    if (event.hook === "compress") add(event.session, event.detail["input"]);
    if (event.hook === "select_context") add(event.session, event.detail["request"]);
  }
  return own;
}

/** Sessions a scenario derives from another (a branch, an export, a rotation child): the same conversation, so the same content. */
function lineage(run: CheckRun): Map<string, string> {
  const parent = new Map<string, string>();
  for (const step of run.scenario?.schedule ?? []) {
    if (step.kind !== "event") continue;
    const event = step.event;
    if ("newSession" in event) parent.set(event.newSession, step.session);
  }
  return parent;
}

/** What the engine (or a tool it answered) put in front of one session: outputs, selections, requests, engine tool results. */
function outputOf(event: TraceEvent): unknown {
  if (event.type === "compaction") return event.output;
  if (event.type === "request") return event.messages;
  if (event.type === "tool-call") return event.routedTo === "engine" ? event.result : null;
  if (event.type === "engine-call" && event.detail !== undefined && (event.hook === "compress" || event.hook === "select_context")) return event.detail["output"];
  return null;
}

export interface LeakSearch {
  leaks: Leak[];
  /** Outputs looked at, for the pass message. */
  outputs: number;
  /** Sessions that had text of their own. */
  sessions: number;
}

export function findLeaks(run: CheckRun): LeakSearch {
  const roots = lineage(run);
  const root = (session: string): string => {
    let current = session;
    for (let hops = 0; roots.has(current) && hops < 100; hops++) current = roots.get(current)!;
    return current;
  };
  const owners = new Map<string, Set<string>>();
  const own = ownText(run);
  for (const [session, texts] of own) {
    for (const text of texts) for (const shingle of shingles(text)) owners.set(shingle, (owners.get(shingle) ?? new Set()).add(root(session)));
  }
  const leaks: Leak[] = [];
  let outputs = 0;
  if (own.size < 2) return { leaks, outputs, sessions: own.size };
  const foreignIn = new Map<string, { from: string; excerpt: string } | null>();
  for (const event of run.trace) {
    if (event.session === null) continue;
    const output = outputOf(event);
    if (output === null || output === undefined) continue;
    outputs++;
    const session = root(event.session);
    for (const text of strings(output)) {
      const key = `${session}\u0000${text}`;
      let found = foreignIn.get(key);
      if (found === undefined) {
        found = null;
        for (const shingle of shingles(text)) {
          const owner = owners.get(shingle);
          if (owner === undefined || owner.size !== 1 || owner.has(session)) continue;
          found = { from: [...owner][0]!, excerpt: shingle };
          break;
        }
        foreignIn.set(key, found);
      }
      if (found !== null) {
        leaks.push({ event, session: event.session, ...found });
        break;
      }
    }
  }
  return { leaks, outputs, sessions: own.size };
}
