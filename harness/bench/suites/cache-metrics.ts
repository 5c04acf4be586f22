import type { Message } from "../../contract/types.ts";
import { canonicalJson } from "../../trace/canonical-json.ts";
import type { RequestEvent, ResponseEvent, Trace } from "../../trace/events.ts";

/**
 * Prompt-cache figures read from one trace. Only requests the provider answered count: a request
 * it rejected (a transient error, a scripted fault, an overflow) is never looked up in or written
 * to the simulated cache, so it has neither a hit nor a miss to report.
 */
export interface CacheTally {
  /** Σ promptTokens over answered requests. */
  promptTokens: number;
  /** Σ cacheReadTokens over answered requests. */
  cacheReadTokens: number;
  /** Turns played (turn-end events). */
  turns: number;
  prefixBreaks: number;
  /** Retried requests whose conversation had not changed since the failed try (see `tallyCache`). */
  unchangedRetries: number;
  needlessSelectionChanges: number;
  /** Per turn with at least one answered request, in the order turns started. */
  perTurn: Array<{ promptTokens: number; cacheReadTokens: number }>;
}

interface Exchange {
  request: RequestEvent;
  response: ResponseEvent | null;
}

/**
 * Definitions, all per session (each session has its own cache):
 *
 * - Prefix break: an answered request whose messages do not begin with every message of the
 *   session's previous answered request (compared as canonical JSON, the identity the provider
 *   hashes). The host puts a breakpoint on the last message, so the whole previous prompt is
 *   cached; a request that does not extend it reads less than all of it. Compactions count too:
 *   a break is the price of any rewrite, wanted or not.
 * - Needless selection change: a request retried after a transient error (attempt n+1 right after
 *   attempt n of the same turn failed transiently, no compaction of the session in between) whose
 *   messages differ from the failed try's. Nothing was appended or compacted between the two
 *   tries, so the only thing that can differ is the engine's select_context answer (SEL-5 makes
 *   the host ask again on retries; CACHE-2 asks for the same answer when nothing changed).
 */
export function tallyCache(trace: Trace): CacheTally {
  const tally: CacheTally = { promptTokens: 0, cacheReadTokens: 0, turns: 0, prefixBreaks: 0, unchangedRetries: 0, needlessSelectionChanges: 0, perTurn: [] };
  const lastAnswered = new Map<string, Message[]>();
  const lastTry = new Map<string, Exchange>();
  const turnIndex = new Map<string, number>();
  tally.turns = trace.filter((event) => event.type === "turn-end").length;
  for (const { exchange, compactedSince } of exchangesOf(trace)) {
    const { request, response } = exchange;
    const session = request.session ?? "";
    const previousTry = lastTry.get(session);
    if (
      previousTry !== undefined &&
      !compactedSince.has(session) &&
      request.attempt > 0 &&
      previousTry.request.turn === request.turn &&
      previousTry.request.attempt === request.attempt - 1 &&
      previousTry.response?.fault === "transient"
    ) {
      tally.unchangedRetries += 1;
      if (listKey(previousTry.request.messages) !== listKey(request.messages)) tally.needlessSelectionChanges += 1;
    }
    lastTry.set(session, exchange);
    compactedSince.delete(session);
    if (!answered(response)) continue;
    tally.promptTokens += request.promptTokens;
    tally.cacheReadTokens += request.cacheReadTokens;
    const previous = lastAnswered.get(session);
    if (previous !== undefined && !extendsPrefix(request.messages, previous)) tally.prefixBreaks += 1;
    lastAnswered.set(session, request.messages);
    const turnKey = `${session}\u0000${request.turn}`;
    let index = turnIndex.get(turnKey);
    if (index === undefined) {
      index = tally.perTurn.length;
      turnIndex.set(turnKey, index);
      tally.perTurn.push({ promptTokens: 0, cacheReadTokens: 0 });
    }
    tally.perTurn[index]!.promptTokens += request.promptTokens;
    tally.perTurn[index]!.cacheReadTokens += request.cacheReadTokens;
  }
  return tally;
}

/** The running sum of several tallies (several scenarios played by one engine). */
export function addTallies(tallies: readonly CacheTally[]): CacheTally {
  const total: CacheTally = { promptTokens: 0, cacheReadTokens: 0, turns: 0, prefixBreaks: 0, unchangedRetries: 0, needlessSelectionChanges: 0, perTurn: [] };
  for (const tally of tallies) {
    total.promptTokens += tally.promptTokens;
    total.cacheReadTokens += tally.cacheReadTokens;
    total.turns += tally.turns;
    total.prefixBreaks += tally.prefixBreaks;
    total.unchangedRetries += tally.unchangedRetries;
    total.needlessSelectionChanges += tally.needlessSelectionChanges;
    total.perTurn.push(...tally.perTurn);
  }
  return total;
}

export function hitRatio(part: { promptTokens: number; cacheReadTokens: number }): number {
  return part.promptTokens > 0 ? Math.min(1, part.cacheReadTokens / part.promptTokens) : 0;
}

/** Each request with its response, and the sessions a committed compaction touched since that session's previous request. */
function* exchangesOf(trace: Trace): Generator<{ exchange: Exchange; compactedSince: Set<string> }> {
  const compactedSince = new Set<string>();
  let pending: Exchange | null = null;
  for (const event of trace) {
    if (event.type === "request") {
      if (pending !== null) yield { exchange: pending, compactedSince };
      pending = { request: event, response: null };
    } else if (event.type === "response" && pending !== null && sameCall(pending.request, event)) {
      pending.response = event;
      yield { exchange: pending, compactedSince };
      pending = null;
    } else if (event.type === "compaction" && event.outcome === "committed" && event.session !== null) {
      compactedSince.add(event.session);
    }
  }
  if (pending !== null) yield { exchange: pending, compactedSince };
}

function sameCall(request: RequestEvent, response: ResponseEvent): boolean {
  return request.session === response.session && request.turn === response.turn && request.attempt === response.attempt;
}

/** The provider answered (a slow reply is still an answer). */
function answered(response: ResponseEvent | null): boolean {
  return response !== null && (response.fault === null || response.fault === "slow");
}

function extendsPrefix(messages: readonly Message[], prefix: readonly Message[]): boolean {
  if (messages.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) {
    if (messages[index] !== prefix[index] && canonicalJson(messages[index]) !== canonicalJson(prefix[index])) return false;
  }
  return true;
}

function listKey(messages: readonly Message[]): string {
  return canonicalJson(messages);
}
