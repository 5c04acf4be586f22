import type { Message } from "../../harness/contract/types.ts";
import { messageText } from "../shared/message-text.ts";
import { carriedNodeIds, isCarrier } from "./carrier.ts";
import type { ResolvedLcmSettings } from "./settings.ts";
import type { MessageHit, LcmStore } from "./store.ts";
import { clipText, queryTerms, searchableText } from "./text.ts";

export const RETRIEVAL_MARKER = "[LCM RETRIEVAL — verbatim excerpts from compacted history]";
const CANDIDATES = 200;
/** A word is distinctive when at most this many messages, or this share of them, contain it. */
const RARE_MIN = 3;
const RARE_SHARE = 0.02;

export interface RetrievalRequest {
  request: readonly Message[];
  incoming: Message | null;
  store: LcmStore;
  scope: readonly string[];
  budgetTokens: number;
  settings: ResolvedLcmSettings;
}

/**
 * The request with raw excerpts the incoming question asks about, when they are only in
 * compacted history; null otherwise. Deterministic in its inputs, so an unchanged request gets an
 * equal selection (SEL-8). Builds a new list; nothing it was given is changed (SEL-6).
 */
export function selectWithRetrieval(input: RetrievalRequest): Message[] | null {
  const { request, settings } = input;
  if (carriedNodeIds(request).length === 0) return null;
  const question = input.incoming ? messageText(input.incoming) : lastUserText(request);
  const terms = queryTerms(question);
  if (terms.length === 0) return null;

  // A match must share a distinctive word with the question (a name, an id), not just common ones.
  const { store } = input;
  const scopeKey = input.scope.join("\u0000");
  const frequency = (term: string | null) => store.memo(`frequency\u0001${scopeKey}\u0001${term ?? ""}`, () => store.messageFrequency(input.scope, term));
  const rareLimit = Math.max(RARE_MIN, Math.ceil(frequency(null) * RARE_SHARE));
  const rare = terms.filter((term) => {
    const count = frequency(term);
    return count > 0 && count <= rareLimit;
  });
  if (rare.length === 0) return null;

  const needed = Math.min(2, terms.length);
  // Which hits could be excerpts depends only on the store and the words, so it is worked out
  // once while the store stays as it is (the requests of one turn's tool loop ask alike).
  const candidates = store.memo(`candidates\u0001${scopeKey}\u0001${terms.join(" ")}`, () =>
    excerptCandidates(store.searchMessages(input.scope, terms, question, false, CANDIDATES), terms, rare, needed),
  );
  const seen = new Set<string>();
  const scored: Array<{ hit: MessageHit; score: number }> = [];
  // The text of the request itself, made only when a candidate needs it: a substring search of
  // the whole request is the costly test, so it comes last.
  let active: string | undefined;
  for (const { hit, text, trimmed, score } of candidates) {
    if (seen.has(text)) continue;
    active ??= request.filter((m) => !isCarrier(m)).map(searchableText).join("\n").toLowerCase();
    if (active.includes(trimmed)) continue;
    seen.add(text);
    scored.push({ hit, score });
  }
  if (scored.length === 0) return null;

  const charBudget = Math.max(settings.retrievalExcerptChars, Math.floor((input.budgetTokens > 0 ? input.budgetTokens : 8_000) * 0.05) * 4);
  const picked = scored
    .sort((a, b) => b.score - a.score || a.hit.row - b.hit.row)
    .slice(0, settings.retrievalExcerpts)
    .sort((a, b) => a.hit.row - b.hit.row);
  const lines: string[] = [];
  let used = 0;
  for (const { hit } of picked) {
    const excerpt = clipText(hit.text, settings.retrievalExcerptChars);
    if (lines.length > 0 && used + excerpt.length > charBudget) break;
    const node = store.nodeOfMessage(hit.row);
    lines.push(`- ${hit.role}${node ? ` (node ${node})` : ""}: ${excerpt}`);
    used += excerpt.length;
  }
  const block = `${RETRIEVAL_MARKER}\nThe request above asks about earlier turns that were compacted. Matching original messages:\n${lines.join("\n")}`;
  return withExcerpts(request, input.incoming, block);
}

interface ExcerptCandidate {
  hit: MessageHit;
  /** The hit's text in lower case, and trimmed. */
  text: string;
  trimmed: string;
  /** How many of the question's words it contains. */
  score: number;
}

/** The current, non-empty hits that share at least `needed` words and one rare word with the question, in the search's order. */
function excerptCandidates(hits: readonly MessageHit[], terms: readonly string[], rare: readonly string[], needed: number): ExcerptCandidate[] {
  const out: ExcerptCandidate[] = [];
  for (const hit of hits) {
    const text = hit.text.toLowerCase();
    const trimmed = text.trim();
    if (!hit.current || trimmed.length === 0) continue;
    const score = terms.filter((t) => text.includes(t)).length;
    if (score < needed || !rare.some((t) => text.includes(t))) continue;
    out.push({ hit, text, trimmed, score });
  }
  return out;
}

/**
 * The request with the excerpts appended to a copy of the question (the incoming user message,
 * else the last user message), so no second user message stands next to it and the prefix before
 * the question stays byte-identical.
 */
function withExcerpts(request: readonly Message[], incoming: Message | null, block: string): Message[] | null {
  const incomingText = incoming ? messageText(incoming) : null;
  let at = incomingText !== null ? request.findLastIndex((m) => m.role === "user" && messageText(m) === incomingText) : -1;
  if (at < 0) at = request.findLastIndex((m) => m.role === "user" && !isCarrier(m));
  if (at < 0) return null;
  const question = request[at] as Message;
  const content = question.content;
  const extended: Message = {
    ...question,
    content: Array.isArray(content) ? [...content, { type: "text", text: block }] : `${typeof content === "string" ? content : ""}\n\n${block}`,
  };
  return [...request.slice(0, at), extended, ...request.slice(at + 1)];
}

function lastUserText(request: readonly Message[]): string {
  const last = request.findLast((m) => m.role === "user" && !isCarrier(m));
  return last ? messageText(last) : "";
}
