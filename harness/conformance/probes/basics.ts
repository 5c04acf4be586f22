import { isContextEngine } from "../../contract/context-engine.ts";
import { nativeFacts } from "../../contract/native.ts";
import type { Usage } from "../../contract/types.ts";
import { selectionFactsOf, type Probe } from "../types.ts";
import { call, startSession } from "./call.ts";

/** REG-5, ABC-1: what the engine calls itself and what it is made of. */
export const identityProbe: Probe = {
  id: "identity",
  description: "Reads the engine's name and members, then asks for its status.",
  async run(engine, context) {
    const record = engine as unknown as Record<string, unknown>;
    let name: unknown;
    try {
      name = record["name"];
    } catch (error) {
      name = `<name threw: ${String(error)}>`;
    }
    const members: Record<string, string> = {};
    for (const member of ["update_from_response", "should_compress", "compress"]) members[member] = typeof record[member];
    // An engine behind the engine protocol is judged by its own class, not by its TypeScript face.
    const native = nativeFacts(engine);
    await call(context, engine, "get_status", [], null, {
      name: typeof name === "string" ? name : null,
      nameType: native ? native.contract.nameType : typeof name,
      selectedName: context.selectedName,
      manifestName: context.manifestName,
      origin: context.origin,
      via: context.origin === null ? null : selectionFactsOf(context.origin).via,
      directoryName: context.origin?.directoryName ?? null,
      isContextEngine: native ? native.contract.isContextEngine : isContextEngine(engine),
      members: native ? native.contract.members : members,
      ...(native ? { nativeClass: { language: native.language, ...native.class } } : {}),
    });
  },
};

/** ABC-2, ABC-3, ABC-4, ABC-6, ABC-7: usage bookkeeping and the should_compress answer. */
export const usageProbe: Probe = {
  id: "usage",
  description: "Feeds complete, minimal and odd usage dicts, then asks should_compress with and without an argument.",
  async run(engine, context) {
    const session = "usage";
    await startSession(context, engine, session);
    const full = (prompt: number, completion: number): Usage => ({
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      input_tokens: prompt,
      output_tokens: completion,
      cache_read_tokens: Math.floor(prompt / 2),
      cache_write_tokens: 0,
      reasoning_tokens: 7,
    });
    for (const usage of [full(1234, 56), full(2345, 67)]) {
      await call(context, engine, "update_from_response", [usage], session, { case: "full", usage });
    }
    const minimal = { prompt_tokens: 3456, completion_tokens: 78, total_tokens: 3534 };
    await call(context, engine, "update_from_response", [minimal], session, { case: "minimal", usage: minimal });
    const extras = { prompt_tokens: 4567, completion_tokens: 89, total_tokens: 4656, provider_cost_usd: 0.0123, routing: { upstream: "probe" }, cached: null };
    await call(context, engine, "update_from_response", [extras], session, { case: "extras", usage: extras });

    const info = await call(context, engine, "should_compress_info", [], session, { case: "info" });
    const blocked = info.ok && typeof info.value === "object" && info.value !== null && (info.value as { blocked?: unknown }).blocked === true;
    await call(context, engine, "should_compress", [], session, { case: "no-argument", blocked });
    const threshold = engine.threshold_tokens;
    const asks: Array<[string, number]> = [
      ["at-threshold", threshold],
      ["above-threshold", threshold * 2],
      ["well-below", Math.floor(threshold / 10)],
    ];
    for (const [name, tokens] of asks) {
      await call(context, engine, "should_compress", [tokens], session, { case: name, prompt_tokens: tokens, threshold_tokens: threshold, blocked });
    }
  },
};
