import type { Message, ToolCall } from "../../harness/contract/types.ts";
import { uidFor } from "../../harness/util/uid.ts";

/** Transcript builders for lcm's tests: deterministic text, a uid on every message. */

export { uidFor };

export interface ScriptedCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: string;
}

export interface TurnSpec {
  user: string;
  reply: string;
  calls?: ScriptedCall[];
}

const WORDS = ["river", "lamp", "copper", "meadow", "signal", "harbor", "quartz", "willow", "ember", "ledger", "canyon", "mosaic"];

/** About `words` words of deterministic filler, distinct per seed. */
export function filler(seed: number, words = 60): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 7 + i * 5 + Math.floor(i / 3)) % WORDS.length] as string);
  return `${out.join(" ")}.`;
}

/** A system prompt and the turns, as the host would restore them: every message carries a uid. */
export function transcript(session: string, turns: readonly TurnSpec[], system = `You are the assistant of ${session}.`): Message[] {
  const messages: Message[] = [{ role: "system", content: system, message_uid: uidFor(`${session}:system`) }];
  turns.forEach((turn, t) => {
    messages.push({ role: "user", content: turn.user, message_uid: uidFor(`${session}:${t}:user`) });
    if (turn.calls && turn.calls.length > 0) {
      const toolCalls: ToolCall[] = turn.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.args) } }));
      messages.push({ role: "assistant", content: null, tool_calls: toolCalls, message_uid: uidFor(`${session}:${t}:calls`) });
      turn.calls.forEach((c, k) => {
        messages.push({ role: "tool", tool_call_id: c.id, content: c.result, message_uid: uidFor(`${session}:${t}:result:${k}`) });
      });
    }
    messages.push({ role: "assistant", content: turn.reply, message_uid: uidFor(`${session}:${t}:reply`) });
  });
  return messages;
}

/** `count` filler turns, the turn at `canaryTurn` (if any) planting `canary` in its user message. */
export function fillerTurns(count: number, seed = 0, canary?: { turn: number; fact: string }): TurnSpec[] {
  return Array.from({ length: count }, (_, t) => ({
    user: canary && canary.turn === t ? `For the record: ${canary.fact}. ${filler(seed + t, 30)}` : `Step ${t}: ${filler(seed + t)}`,
    reply: `Done with step ${t}. ${filler(seed + t + 100)}`,
  }));
}

/** The host's turn-level calls for a session's history: on_turn_complete after every turn. */
export function completeTurns(
  engine: { on_turn_complete(messages: Message[], usage: null, info: { turn_id: string; task_id: string; api_call_count: number; interrupted: boolean; failed: boolean; turn_exit_reason: null }): unknown },
  session: string,
  history: readonly Message[],
): void {
  const userIndices = history.flatMap((m, i) => (m.role === "user" ? [i] : []));
  userIndices.forEach((start, t) => {
    const end = userIndices[t + 1] ?? history.length;
    const info = { turn_id: `${session}:task-${t}:0000000${t % 10}`, task_id: `task-${t}`, api_call_count: 1, interrupted: false, failed: false, turn_exit_reason: null };
    engine.on_turn_complete(structuredClone(history.slice(0, Math.max(end, start + 1))), null, info);
  });
}
