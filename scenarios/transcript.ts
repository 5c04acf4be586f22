import type { Message } from "../harness/contract/types.ts";
import { estimateTokensRough } from "../harness/contract/tokens.ts";
import type { Scenario, ScenarioSession, ScenarioTurn } from "./format.ts";

/**
 * The OpenAI-format messages a session's turns produce when every step succeeds, with any
 * recorded uids as host identity fields. Faulted steps contribute nothing.
 */
export function sessionMessages(session: ScenarioSession): Message[] {
  const system: Message = { role: "system", content: session.systemPrompt };
  if (session.systemMessageUid) system.message_uid = session.systemMessageUid;
  const messages: Message[] = [system];
  for (const turn of session.turns) messages.push(...turnMessages(turn));
  return messages;
}

export function turnMessages(turn: ScenarioTurn): Message[] {
  const user: Message = { role: "user", content: turn.user };
  if (turn.userMessageUid) user.message_uid = turn.userMessageUid;
  const out: Message[] = [user];
  for (const step of turn.steps) {
    if (step.fault && step.fault.kind !== "transient" && step.fault.kind !== "slow") continue;
    const assistant: Message = { role: "assistant", content: step.content };
    if (step.toolCalls?.length) {
      assistant.tool_calls = step.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
    }
    if (step.messageUid) assistant.message_uid = step.messageUid;
    if (step.toolCallUids) assistant._tool_call_uids = step.toolCallUids;
    out.push(assistant);
    for (const call of step.toolCalls ?? []) {
      if (call.resultMissing) continue;
      const result: Message = { role: "tool", tool_call_id: call.id, content: call.result };
      if (call.resultMessageUid) result.message_uid = call.resultMessageUid;
      if (call.resultToolCallUid) result._tool_call_uid = call.resultToolCallUid;
      out.push(result);
    }
  }
  return out;
}

/** Messages a scenario's turns carry: each user message, provider response and tool result. */
export function countScenarioMessages(scenario: Scenario): number {
  let count = 0;
  for (const session of scenario.sessions) {
    for (const turn of session.turns) {
      count += 1 + turn.steps.length;
      for (const step of turn.steps) count += step.toolCalls?.length ?? 0;
    }
  }
  return count;
}

/** Rough tokens of a session's whole transcript, were nothing ever compacted. */
export function sessionTokensRough(session: ScenarioSession): number {
  return estimateTokensRough(sessionMessages(session));
}
