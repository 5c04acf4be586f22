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

  const active = request.filter((m) => !isCarrier(m)).map(searchableText).join("\n").toLowerCase();
  const needed = Math.min(2, terms.length);
  const seen = new Set<string>();
  const scored: Array<{ hit: MessageHit; score: number }> = [];
  const hits = store.memo(`search\u0001${scopeKey}\u0001${terms.join(" ")}`, () => store.searchMessages(input.scope, terms, question, false, CANDIDATES));
  for (const hit of hits) {
    const text = hit.text.toLowerCase();
    if (!hit.current || text.trim().length === 0 || seen.has(text) || active.includes(text.trim())) continue;
    const score = terms.filter((t) => text.includes(t)).length;
    if (score < needed || !rare.some((t) => text.includes(t))) continue;
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
