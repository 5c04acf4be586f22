import type { Message } from "../../contract/types.ts";
import { hasRepeatedToolCallIds } from "../probes/conversation.ts";
import type { CompressObservation } from "./helpers.ts";

/**
 * What makes a compress call special: repeated tool-call ids (TCU-3), legacy rows without uids
 * (UID-2), a current user message without a uid (CMP-9), rows sharing a uid (UID-7), a content
 * change under a known uid (UID-4), a focus topic (CMP-6), and — from the probe that made the call
 * — a call from outside the session's async context (THR-1). A tag never hides an output from a
 * rule; it names an additional rule when it caused a defect (compress-judgement.ts).
 */
export type InputTag = "repeated-ids" | "legacy-rows" | "preflight" | "shared-uid" | "rewrite" | "focus" | "other-context";

export function inputTags(input: readonly Message[]): Set<InputTag> {
  const tags = new Set<InputTag>();
  if (hasRepeatedToolCallIds(input)) tags.add("repeated-ids");
  const last = input[input.length - 1];
  const currentWithoutUid = last !== undefined && last.role === "user" && typeof last.message_uid !== "string";
  if (currentWithoutUid) tags.add("preflight");
  const body = currentWithoutUid ? input.slice(0, -1) : input;
  if (body.some((message) => typeof message.message_uid !== "string")) tags.add("legacy-rows");
  const seen = new Set<string>();
  for (const message of input) {
    if (typeof message.message_uid !== "string") continue;
    if (seen.has(message.message_uid)) tags.add("shared-uid");
    seen.add(message.message_uid);
  }
  return tags;
}

/**
 * Tags of every observation, in order. A rewrite is a uid that has had more than one content in
 * this run and session, this input included: from the first changed version on, the engine has
 * seen the uid change, so every later call of the session carries the condition.
 */
export function tagObservations(observations: readonly CompressObservation[]): Array<{ observation: CompressObservation; tags: Set<InputTag> }> {
  const versions = new Map<string, Set<string>>();
  return observations.map((observation) => {
    const tags = inputTags(observation.input);
    if (observation.focusTopic !== null) tags.add("focus");
    if (observation.condition === "other-context") tags.add("other-context");
    const scope = `${observation.seed}/${observation.source}/${observation.event.session ?? ""}`;
    const shared = tags.has("shared-uid");
    for (const message of observation.input) {
      if (typeof message.message_uid !== "string" || shared) continue;
      const key = `${scope}/${message.message_uid}`;
      const texts = versions.get(key) ?? new Set<string>();
      texts.add(typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? null));
      versions.set(key, texts);
      if (texts.size > 1) tags.add("rewrite");
    }
    return { observation, tags };
  });
}
