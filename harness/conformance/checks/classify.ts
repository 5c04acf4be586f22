import type { Message } from "../../contract/types.ts";
import { hasRepeatedToolCallIds } from "../probes/conversation.ts";
import type { CompressObservation } from "./helpers.ts";

/**
 * What makes a compress input special, so that each rule judges only its own inputs and a
 * broken engine fails the checks of one rule: repeated tool-call ids (TCU-3), legacy rows
 * without uids (UID-2), a current user message without a uid (CMP-9), rows sharing a uid
 * (UID-7), a content change under a known uid (UID-4), a focus topic (CMP-6/7).
 */
export type InputTag = "repeated-ids" | "legacy-rows" | "preflight" | "shared-uid" | "rewrite" | "focus";

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

/** Tags of every observation, in order; a rewrite is a uid whose text differs from an earlier input of the same run and session. */
export function tagObservations(observations: readonly CompressObservation[]): Array<{ observation: CompressObservation; tags: Set<InputTag> }> {
  const known = new Map<string, string>();
  return observations.map((observation) => {
    const tags = inputTags(observation.input);
    if (observation.focusTopic !== null) tags.add("focus");
    const scope = `${observation.source}/${observation.event.session ?? ""}`;
    const local = new Map<string, string>();
    for (const message of observation.input) {
      if (typeof message.message_uid !== "string") continue;
      const key = `${scope}/${message.message_uid}`;
      const text = JSON.stringify(message.content ?? null);
      const earlier = known.get(key);
      if (earlier !== undefined && earlier !== text && !tags.has("shared-uid")) tags.add("rewrite");
      local.set(key, text);
    }
    for (const [key, text] of local) known.set(key, text);
    return { observation, tags };
  });
}

/** Observations with none of the special tags: the ordinary inputs CMP-1..5 and CMP-8 judge. */
export function ordinaryObservations(observations: readonly CompressObservation[]): CompressObservation[] {
  return tagObservations(observations)
    .filter(({ tags }) => tags.size === 0)
    .map(({ observation }) => observation);
}

export function observationsTagged(observations: readonly CompressObservation[], tag: InputTag): CompressObservation[] {
  return tagObservations(observations)
    .filter(({ tags }) => tags.has(tag))
    .map(({ observation }) => observation);
}
