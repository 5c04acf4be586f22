/** The profile suite: what each engine implements, read off the engine and observed (focus_topic). */
import { array, boolean, nullable, object, string, type Infer } from "../../util/schema.ts";
import { defineSuite, joinPerEngine, suiteShape, warningNotes, type GlanceColumn } from "../suite.ts";
import type { EngineProfile } from "./profile.ts";

/** The topic asked for: one the sample transcript's turns talk about. */
export const PROFILE_FOCUS_TOPIC = "billing";

export const profileShape = suiteShape("profile", "Profile", {
  engines: array(
    object({
      engine: string({ minLength: 1 }),
      /** It overrides select_context: it may replace the messages of a request. */
      selectContext: boolean(),
      /** It overrides on_turn_complete. */
      onTurnComplete: boolean(),
      /** The tools it offers the model, by name. */
      tools: array(string()),
      /** focus_topic changes its compress() output; null when that could not be told (`focusNote` says why). */
      focus: nullable(boolean()),
      focusNote: nullable(string()),
    }),
  ),
});

export type ProfileSuite = Infer<typeof profileShape>;

/** "select_context, on_turn_complete, 3 tools (lcm_grep, …), focus": what an engine does beyond compress(), in a line. */
export function implementsText(profile: EngineProfile): string {
  const parts = [
    profile.selectContext ? "select_context" : "",
    profile.onTurnComplete ? "on_turn_complete" : "",
    profile.tools.length > 0 ? `tools: ${profile.tools.join(", ")}` : "",
    profile.focus === true ? "focus_topic" : profile.focus === null ? "focus_topic undecided" : "",
  ].filter(Boolean);
  return parts.length === 0 ? "compress() only" : `compress() + ${parts.join(", ")}`;
}

const yesNo = (value: boolean) => (value ? "yes" : "no");

export const profileSuite = defineSuite({
  name: "profile",
  description: "what each engine implements: select_context, on_turn_complete, its tools, and whether focus_topic changes compress()",
  shape: profileShape,
  run: async (context) => {
    const started = performance.now();
    const warnings: string[] = [];
    const { profileEngines } = await import("./profile.ts");
    const engines = await profileEngines(context.engines, context.seed, warnings, context.scratchDir);
    return { suite: "profile" as const, engines, warnings, goals: [], noise: null, durationMs: performance.now() - started };
  },
  tables: (suite) => [
    {
      id: "profile",
      title: "What each engine implements",
      headers: ["Engine", "select_context", "on_turn_complete", "Tools", "focus_topic changes compress()"],
      rows: suite.engines.map((engine) => [engine.engine, yesNo(engine.selectContext), yesNo(engine.onTurnComplete), engine.tools.join(", ") || "none", engine.focus === null ? "undecided" : yesNo(engine.focus)]),
      notes: [
        `Hooks and tools are read off the engine as the host reads them; focus is observed: fresh engines compress one transcript without a topic, with "${PROFILE_FOCUS_TOPIC}", and without one again.`,
        ...suite.engines.flatMap((engine) => (engine.focusNote === null ? [] : [`${engine.engine}: focus undecided: ${engine.focusNote}.`])),
        ...warningNotes(suite),
      ],
    },
  ],
  charts: () => [],
  glance: (suite): GlanceColumn[] => [{ id: "implements", header: "Implements", table: "profile", cells: suite.engines.map((engine) => ({ engine: engine.engine, text: implementsText(engine), noisy: null })) }],
  figures: () => ({}),
  join: (a, b) => joinPerEngine(a, b),
});
