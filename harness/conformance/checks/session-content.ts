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
  /** The words (or the planted canary), as evidence. */
  excerpt: string;
  /** Found by a planted canary rather than by content. */
  canary: boolean;
}

export const SHARED = Symbol("shared");

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

/**
 * Shingles by number: each distinct word gets an id, and a shingle is looked up by a hash of its
 * SHINGLE_WORDS ids and confirmed id by id, so no shingle string is built unless it is evidence.
 * Equal hashes of different shingles only share a chain; they never merge.
 */
interface Shingle {
  ids: Int32Array;
  at: number;
  owner: string | typeof SHARED;
  next: Shingle | undefined;
}

export class ShingleIndex {
  readonly #wordIds = new Map<string, number>();
  readonly #chains = new Map<number, Shingle>();
  readonly #hash: (ids: Int32Array, at: number) => number;

  /** `hash` is for tests, which make every shingle collide. */
  constructor(hash: (ids: Int32Array, at: number) => number = shingleHash) {
    this.#hash = hash;
  }

  /** The text's words and their ids. */
  read(text: string): { list: string[]; ids: Int32Array } {
    const list = words(text);
    const ids = new Int32Array(list.length);
    for (let index = 0; index < list.length; index++) {
      const word = list[index]!;
      let id = this.#wordIds.get(word);
      if (id === undefined) this.#wordIds.set(word, (id = this.#wordIds.size));
      ids[index] = id;
    }
    return { list, ids };
  }

  /** Records `owner` for every shingle of `ids`; a shingle two owners have becomes SHARED. */
  own(ids: Int32Array, owner: string): void {
    for (let at = 0; at + SHINGLE_WORDS <= ids.length; at++) {
      const hash = this.#hash(ids, at);
      const head = this.#chains.get(hash);
      const known = find(head, ids, at);
      if (known === undefined) this.#chains.set(hash, { ids, at, owner, next: head });
      else if (known.owner !== owner) known.owner = SHARED;
    }
  }

  /** The owner of the shingle starting at word `at` (SHARED, or undefined when nobody has it). */
  ownerAt(ids: Int32Array, at: number): string | typeof SHARED | undefined {
    return find(this.#chains.get(this.#hash(ids, at)), ids, at)?.owner;
  }
}

function shingleHash(ids: Int32Array, at: number): number {
  let hash = 0x2545f491;
  for (let k = 0; k < SHINGLE_WORDS; k++) {
    hash = Math.imul(hash ^ ids[at + k]!, 0x9e3779b1);
    hash ^= hash >>> 15;
  }
  // 30 bits: a small integer key, which a Map looks up fastest.
  return hash & 0x3fffffff;
}

function find(head: Shingle | undefined, ids: Int32Array, at: number): Shingle | undefined {
  for (let entry = head; entry !== undefined; entry = entry.next) {
    let k = 0;
    while (k < SHINGLE_WORDS && entry.ids[entry.at + k] === ids[at + k]) k++;
    if (k === SHINGLE_WORDS) return entry;
  }
  return undefined;
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
  const add = (session: string, value: unknown) => {
    let texts = own.get(session);
    if (texts === undefined) own.set(session, (texts = []));
    strings(value, texts);
  };
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

/** Canary tokens planted per session: a played scenario's, or the probe's CANARY-<SESSION>-<n>. */
function canaries(run: CheckRun): Array<{ session: string; token: string }> {
  return run.scenario?.canaries.map((canary) => ({ session: canary.session, token: canary.token })) ?? [];
}

const PROBE_CANARY = /CANARY-([A-Z]+)-\d+/g;

/**
 * Every output of a session that shows another session's own text (a run of SHINGLE_WORDS words)
 * or one of its canaries. Each distinct text is searched once per session: the host's copies share
 * their strings, so a long history costs one search per message, not one per request.
 */
const searches = new WeakMap<CheckRun, LeakSearch>();

export function findLeaks(run: CheckRun): LeakSearch {
  let search = searches.get(run);
  if (search === undefined) {
    search = searchLeaks(run);
    searches.set(run, search);
  }
  return search;
}

function searchLeaks(run: CheckRun): LeakSearch {
  const roots = lineage(run);
  const root = (session: string): string => {
    let current = session;
    for (let hops = 0; roots.has(current) && hops < 100; hops++) current = roots.get(current)!;
    return current;
  };
  const index = new ShingleIndex();
  const own = ownText(run);
  // Each root session's own texts: none of their shingles can belong to another root, so such a text is searched for canaries only.
  const ownByRoot = new Map<string, Set<string>>();
  for (const [session, texts] of own) {
    const owner = root(session);
    let mine = ownByRoot.get(owner);
    if (mine === undefined) ownByRoot.set(owner, (mine = new Set()));
    // A session's inputs repeat the same messages call after call: each distinct text of a root is cut into shingles once.
    for (const text of texts) {
      if (mine.has(text)) continue;
      mine.add(text);
      index.own(index.read(text).ids, owner);
    }
  }
  const planted = canaries(run).map((canary) => ({ ...canary, root: root(canary.session) }));
  const othersCanaries = new Map<string, typeof planted>();
  const canariesNotOf = (session: string) => {
    let list = othersCanaries.get(session);
    if (list === undefined) othersCanaries.set(session, (list = planted.filter((canary) => canary.root !== session)));
    return list;
  };
  const leaks: Leak[] = [];
  let outputs = 0;
  const searched = new Map<string, Map<string, Omit<Leak, "event" | "session"> | null>>();
  const search = (session: string, text: string): Omit<Leak, "event" | "session"> | null => {
    for (const match of text.matchAll(PROBE_CANARY)) if (match[1] !== session.toUpperCase()) return { from: match[1]!.toLowerCase(), excerpt: match[0], canary: true };
    for (const canary of canariesNotOf(session)) if (text.includes(canary.token)) return { from: canary.session, excerpt: canary.token, canary: true };
    if (own.size < 2 || ownByRoot.get(session)?.has(text) === true) return null;
    const { list, ids } = index.read(text);
    for (let at = 0; at + SHINGLE_WORDS <= ids.length; at++) {
      const owner = index.ownerAt(ids, at);
      if (owner !== undefined && owner !== SHARED && owner !== session) return { from: owner, excerpt: list.slice(at, at + SHINGLE_WORDS).join(" "), canary: false };
    }
    return null;
  };
  for (const event of run.trace) {
    if (event.session === null) continue;
    const output = outputOf(event);
    if (output === null || output === undefined) continue;
    outputs++;
    const session = root(event.session);
    let cache = searched.get(session);
    if (cache === undefined) searched.set(session, (cache = new Map()));
    for (const text of strings(output)) {
      let found = cache.get(text);
      if (found === undefined) {
        found = search(session, text);
        cache.set(text, found);
      }
      if (found !== null) {
        leaks.push({ event, session: event.session, ...found });
        break;
      }
    }
  }
  return { leaks, outputs, sessions: own.size };
}
