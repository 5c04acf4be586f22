/**
 * What each engine implements, as a reader choosing one wants it in a line: whether it replaces
 * the context of a request (select_context), observes finished turns (on_turn_complete), which
 * tools it offers the model, and whether focus_topic changes what compress() keeps.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { overridesHook, type ContextEngine } from "../../contract/context-engine.ts";
import type { Message } from "../../contract/types.ts";
import { sampleTranscript } from "../../testkit/transcript.ts";
import type { EngineFactory } from "../engine-factory.ts";
import { closeEngine } from "./cache.ts";
import { PROFILE_FOCUS_TOPIC } from "./profile.suite.ts";

export interface EngineProfile {
  engine: string;
  /** It overrides select_context: it may replace the messages of a request. */
  selectContext: boolean;
  /** It overrides on_turn_complete. */
  onTurnComplete: boolean;
  /** The tools it offers the model, by name. */
  tools: string[];
  /** focus_topic changes its compress() output; null when that could not be told (`focusNote` says why). */
  focus: boolean | null;
  focusNote: string | null;
}

const CONTEXT_LENGTH = 8_000;

async function compressOnce(factory: EngineFactory, transcript: readonly Message[], focus: string | null, home: string): Promise<string> {
  const engine = await factory.create();
  try {
    engine.update_model({ model: "profile", context_length: CONTEXT_LENGTH });
    await engine.on_session_start("profile", { home, context_length: CONTEXT_LENGTH, model: "profile" });
    const output = await engine.compress(structuredClone(transcript) as Message[], null, focus, {});
    await engine.on_session_end("profile", output);
    return JSON.stringify(output);
  } finally {
    await closeEngine(engine);
  }
}

/**
 * Focus support is observed, not declared: the same transcript compressed by fresh engines without
 * a topic, with one, and without one again. Two plain passes that differ leave it undecided.
 */
async function focusOf(factory: EngineFactory, seed: number, scratch: string): Promise<Pick<EngineProfile, "focus" | "focusNote">> {
  const transcript = sampleTranscript({ messages: 160, seed, idStyle: "unique" });
  try {
    const plain = await compressOnce(factory, transcript, null, mkdtempSync(join(scratch, "plain-")));
    const focused = await compressOnce(factory, transcript, PROFILE_FOCUS_TOPIC, mkdtempSync(join(scratch, "focus-")));
    const again = await compressOnce(factory, transcript, null, mkdtempSync(join(scratch, "again-")));
    if (plain !== again) return { focus: null, focusNote: "two passes over the same transcript gave different outputs, so a topic's effect cannot be told apart" };
    return { focus: plain !== focused, focusNote: null };
  } catch (error) {
    return { focus: null, focusNote: `compress() threw on the profile transcript: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function toolsOf(engine: ContextEngine, warnings: string[], name: string): string[] {
  try {
    const schemas = engine.get_tool_schemas();
    return Array.isArray(schemas) ? schemas.map((schema) => String((schema as { name?: unknown }).name)) : [];
  } catch (error) {
    warnings.push(`${name}: get_tool_schemas threw: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  }
}

/** `scratchDir`: where its temporary files go (default the system's temporary directory). */
export async function profileEngines(engines: readonly EngineFactory[], seed: number, warnings: string[], scratchDir = tmpdir()): Promise<EngineProfile[]> {
  const scratch = mkdtempSync(join(scratchDir, "ctxbench-profile-"));
  const profiles: EngineProfile[] = [];
  try {
    for (const factory of engines) {
      const engine = await factory.create();
      let hooks: Pick<EngineProfile, "selectContext" | "onTurnComplete" | "tools">;
      try {
        hooks = { selectContext: overridesHook(engine, "select_context"), onTurnComplete: overridesHook(engine, "on_turn_complete"), tools: toolsOf(engine, warnings, factory.name) };
      } finally {
        await closeEngine(engine);
      }
      profiles.push({ engine: factory.name, ...hooks, ...(await focusOf(factory, seed, scratch)) });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return profiles;
}
