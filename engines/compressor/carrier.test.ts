import { describe, expect, it } from "vitest";
import type { Message } from "../../harness/contract/types.ts";
import {
  carrierMessage,
  holdsCarrier,
  isCarrierUid,
  mergeCarrierInto,
  mintCarrierUid,
  placeCarrier,
  unwrapCarrier,
} from "./carrier.ts";

describe("placeCarrier", () => {
  it("is a user message when it would be the first visible message", () => {
    expect(placeCarrier("system", "assistant", true)).toEqual({ kind: "insert", role: "user" });
    expect(placeCarrier(null, "assistant", true)).toEqual({ kind: "insert", role: "user" });
  });

  it("is a user message after an assistant or tool message", () => {
    expect(placeCarrier("assistant", "assistant", true)).toEqual({ kind: "insert", role: "user" });
    expect(placeCarrier("tool", "assistant", true)).toEqual({ kind: "insert", role: "user" });
  });

  it("is an assistant message after a user message", () => {
    expect(placeCarrier("user", "user", true)).toEqual({ kind: "insert", role: "assistant" });
  });

  it("flips to the other role to avoid colliding with the first tail message", () => {
    expect(placeCarrier("tool", "user", true)).toEqual({ kind: "insert", role: "assistant" });
    expect(placeCarrier("assistant", "user", true)).toEqual({ kind: "merge" });
  });

  it("merges into the first tail message when both roles collide", () => {
    expect(placeCarrier("system", "user", true)).toEqual({ kind: "merge" });
    expect(placeCarrier("user", "assistant", true)).toEqual({ kind: "merge" });
  });

  it("is a user message when no user message survives", () => {
    expect(placeCarrier("tool", "assistant", false)).toEqual({ kind: "insert", role: "user" });
    expect(placeCarrier("system", null, false)).toEqual({ kind: "insert", role: "user" });
  });
});

describe("carrier identity", () => {
  it("mints 32-hex uids with the carrier prefix, the same for the same seed", () => {
    const uid = mintCarrierUid("seed");
    expect(uid).toMatch(/^[0-9a-f]{32}$/);
    expect(isCarrierUid(uid)).toBe(true);
    expect(mintCarrierUid("seed")).toBe(uid);
    expect(mintCarrierUid("other")).not.toBe(uid);
  });

  it("recognises a carrier by uid, by a host fold that absorbed it, and by its text", () => {
    const uid = mintCarrierUid("x");
    const carrier = carrierMessage("user", "## User asks\n- fix it", uid);
    expect(holdsCarrier(carrier)).toBe(true);
    expect(holdsCarrier({ role: "user", content: "hi", message_uid: "a".repeat(32), _absorbed_message_uids: [uid] })).toBe(true);
    const { message_uid: _dropped, ...withoutUid } = carrier;
    expect(holdsCarrier(withoutUid as Message)).toBe(true);
    expect(holdsCarrier({ role: "user", content: "hi", message_uid: "a".repeat(32) })).toBe(false);
  });

  it("unwraps a pure carrier into its body", () => {
    const uid = mintCarrierUid("x");
    const unwrapped = unwrapCarrier(carrierMessage("user", "## User asks\n- fix it", uid));
    expect(unwrapped).toEqual({ bodies: ["## User asks\n- fix it"], rest: null, uid });
  });

  it("gives a merged message back its own text and identity", () => {
    const uid = mintCarrierUid("x");
    const userUid = "b".repeat(32);
    const merged = mergeCarrierInto({ role: "user", content: "Now deploy.", message_uid: userUid }, "## User asks\n- fix it", uid);
    expect(merged.message_uid).toBe(userUid);
    expect(merged._absorbed_message_uids).toEqual([uid]);
    expect(String(merged.content).endsWith("Now deploy.")).toBe(true);
    const unwrapped = unwrapCarrier(merged);
    expect(unwrapped.bodies).toEqual(["## User asks\n- fix it"]);
    expect(unwrapped.uid).toBe(uid);
    expect(unwrapped.rest).toEqual({ role: "user", content: "Now deploy.", message_uid: userUid });
  });

  it("undoes a host fold that kept the carrier's uid first (UID-5)", () => {
    const uid = mintCarrierUid("x");
    const userUid = "c".repeat(32);
    const carrier = carrierMessage("user", "body", uid);
    const folded: Message = { role: "user", content: `${String(carrier.content)}\n\nAnd run the tests.`, message_uid: uid, _absorbed_message_uids: [userUid] };
    const unwrapped = unwrapCarrier(folded);
    expect(unwrapped.rest).toEqual({ role: "user", content: "And run the tests.", message_uid: userUid });
  });

  it("merges into multimodal content as a leading text part", () => {
    const merged = mergeCarrierInto(
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:," } }] },
      "body",
      mintCarrierUid("x"),
    );
    expect(Array.isArray(merged.content)).toBe(true);
    expect((merged.content as Array<{ type: string }>).map((part) => part.type)).toEqual(["text", "image_url"]);
  });
});
