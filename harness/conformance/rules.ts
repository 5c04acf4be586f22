import type { Level } from "./types.ts";

/** Who a rule binds: the plugin engine (certified here) or the reference host (proven by its tests). */
export type Binds = "engine" | "host";

export interface Rule {
  id: string;
  binds: Binds;
  level: Level;
  /** The rule restated briefly; RULES.md is the normative text. */
  statement: string;
}

const rule = (id: string, binds: Binds, level: Level, statement: string): Rule => ({ id, binds, level, statement });

/** Every rule of the contract, by stable id. The certifier has checks for each engine-binding rule. */
export const RULES: readonly Rule[] = [
  rule("REG-1", "host", "MUST", "The configured context.engine picks the engine; absent or empty means the built-in compressor; installing is not activating."),
  rule("REG-2", "host", "MUST", "A plugin directory with an entry module and plugin.yaml is found by its name; a bundled engine wins a name clash."),
  rule("REG-3", "host", "MUST", "register(ctx) may register one context engine; a second registration or a non-engine is refused with a warning."),
  rule("REG-4", "host", "MUST", "An unknown or broken engine falls back to the compressor with a warning naming it and the cause."),
  rule("REG-5", "engine", "MUST", "The engine's name is a non-empty string equal to the name it is selected by."),
  rule("REG-6", "engine", "MUST", "clone_for_agent gives a distinct, working engine with the same configuration and its own budget state."),
  rule("ABC-1", "engine", "MUST", "The engine extends the contract's ContextEngine and implements name, update_from_response, should_compress and compress."),
  rule("ABC-2", "engine", "MUST", "update_from_response copies prompt, completion and total tokens of the usage into the last_* counters."),
  rule("ABC-3", "engine", "MUST", "update_from_response tolerates usage lacking the optional buckets or carrying unknown keys."),
  rule("ABC-4", "engine", "MUST", "context_length and threshold_tokens are non-negative integers, and once the window is known the threshold lies in (0, context_length]."),
  rule("ABC-5", "engine", "MUST", "compression_count rises by exactly one for each completed compress call."),
  rule("ABC-6", "engine", "MUST", "should_compress answers a boolean without throwing, with and without its argument."),
  rule("ABC-7", "engine", "SHOULD", "Unless blocked, should_compress says yes at or above the threshold and no well below it."),
  rule("CMP-1", "engine", "MUST", "compress returns a list of message objects whose roles are system, user, assistant or tool."),
  rule("CMP-2", "engine", "MUST", "compress returns a valid OpenAI sequence: results answer earlier calls, calls get results, parallel batches stay whole, JSON arguments stay JSON."),
  rule("CMP-3", "engine", "MUST", "A leading system message keeps all its text (a note may be added)."),
  rule("CMP-4", "engine", "MUST", "compress never returns more estimated tokens than it was given."),
  rule("CMP-5", "engine", "SHOULD", "Over the threshold, compress brings the estimate below it and keeps the latest user message."),
  rule("CMP-6", "engine", "MUST", "compress accepts a focus_topic argument, even if it ignores it."),
  rule("CMP-7", "engine", "SHOULD", "An engine that uses focus_topic keeps more of the facts about that topic than without it."),
  rule("CMP-8", "engine", "SHOULD", "A message that passes through compress unchanged keeps its message_uid."),
  rule("CMP-9", "engine", "MUST", "A preflight compress whose current user message has no uid yet works as usual."),
  rule("SEL-1", "host", "MUST", "The host never calls an inherited select_context or on_turn_complete; the request stays byte-identical."),
  rule("SEL-2", "host", "MUST", "A missing, throwing or invalid selection leaves the request as it was."),
  rule("SEL-3", "host", "MUST", "Selection runs before cache-control and sanitizers; a replacement is validated like any request."),
  rule("SEL-4", "host", "MUST", "A selection affects one provider call only and is never persisted."),
  rule("SEL-5", "host", "MUST", "Selection is asked per provider request, retries included."),
  rule("SEL-6", "engine", "MUST", "select_context leaves conversation_messages and incoming_message untouched; request_messages is the live request, and editing it is request-only."),
  rule("SEL-7", "engine", "MUST", "select_context answers nothing or a non-empty list of message objects."),
  rule("SEL-8", "engine", "SHOULD", "Asked again with nothing changed, select_context gives the same or an equal list."),
  rule("SEL-9", "engine", "SHOULD", "A selection is a valid request by itself."),
  rule("OTC-1", "host", "MUST", "After a turn the hook gets a transcript copy, the usage or null, and the turn's identifiers and exit flags."),
  rule("OTC-2", "host", "MUST", "The hook's answer is ignored and its exceptions are swallowed."),
  rule("OTC-3", "host", "MUST", "Content-policy blocks and terminal provider failures return without the hook."),
  rule("OTC-4", "engine", "MUST", "on_turn_complete does not modify the messages it is shown."),
  rule("OTC-5", "engine", "MUST", "on_turn_complete copes with a null usage from an interrupted turn."),
  rule("UID-1", "host", "MUST", "Every engine surface carries message_uid once the row exists."),
  rule("UID-2", "engine", "MUST", "A message without a uid is simply not identified yet, never an error."),
  rule("UID-3", "host", "MUST", "Host copies of a logical message keep its uid."),
  rule("UID-4", "engine", "MUST", "New content under a known uid is a new version of the message, never a reason to fail."),
  rule("UID-5", "host", "MUST", "A merge keeps the first constituent's uid and records the others as absorbed, persistently."),
  rule("UID-6", "host", "MUST", "A uid an engine stamps on a row it emits is stored and returned later; other rows get one at insert."),
  rule("UID-7", "engine", "MUST", "Several active rows may share a uid; the engine treats the later one as current and never assumes uniqueness."),
  rule("UID-8", "host", "MUST", "Upgrading to schema v31 backfills uids in bounded slices and mints uids for rows older builds insert."),
  rule("TCU-1", "host", "MUST", "Assistant rows map provider call ids to occurrence uids; results carry theirs; the provider id is untouched."),
  rule("TCU-2", "host", "MUST", "Tool-call uids are minted, paired, persisted and copied like message uids."),
  rule("TCU-3", "engine", "MUST", "Repeated provider tool-call ids never make the engine orphan or mis-pair results."),
  rule("WIRE-1", "host", "MUST", "Persistence-only fields never reach the provider, selections included."),
  rule("WIRE-2", "host", "MUST", "The token estimator ignores persistence-only fields."),
  rule("TOOL-1", "engine", "MUST", "get_tool_schemas lists {name, description, parameters} with unique non-empty names and object schemas."),
  rule("TOOL-2", "engine", "MUST", "handle_tool_call answers a JSON string for every call, unknown names and malformed arguments included."),
  rule("TOOL-3", "host", "MUST", "Engine tools are offered unless their name collides; calls route to the engine and exceptions become error JSON."),
  rule("LIFE-1", "host", "MUST", "Hooks are called in lifecycle order; on_session_end only at session boundaries."),
  rule("LIFE-2", "engine", "MUST", "The engine survives repeated sessions, resets (which zero its counters) and model changes."),
  rule("THR-1", "engine", "MUST", "The engine does not depend on which worker or async context calls it."),
  rule("THR-2", "engine", "MUST", "One engine shared by concurrent sessions keeps them apart: no corruption, no leaked content."),
  rule("THR-3", "host", "MUST", "A compaction pass works on a private snapshot that becomes visible only on commit; timed-out work is dropped."),
  rule("THR-4", "engine", "MUST", "After a host timeout the engine has written nothing durable or external outside the commit."),
  rule("CACHE-1", "host", "MUST", "A non-selecting engine leaves requests byte-identical."),
  rule("CACHE-2", "engine", "SHOULD", "A selecting engine changes its cache prefix only when its selection really changes."),
];

export const ENGINE_RULES: readonly Rule[] = RULES.filter((entry) => entry.binds === "engine");

export function findRule(id: string): Rule | undefined {
  return RULES.find((entry) => entry.id === id);
}
