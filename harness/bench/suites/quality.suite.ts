/** The quality suite: planted canaries after compaction, in the active context and through the engine's tools. */
import { array, integer, nullable, number, object, oneOf, string, type Infer } from "../../util/schema.ts";
import { percent } from "../../util/format.ts";
import { defineSuite, joinPerEngine, suiteShape, warningNotes, type GlanceColumn } from "../suite.ts";

const share = () => number({ minimum: 0, maximum: 1 });

export const qualityShape = suiteShape("quality", "Quality", {
  canaries: integer({ minimum: 0 }),
  engines: array(
    object({
      engine: string({ minLength: 1 }),
      recallActive: share(),
      /** null when not measured: `recallViaToolsNotMeasured` says why. */
      recallViaTools: nullable(share()),
      /** The tool asked, its query parameter, and how it was found (plugin.yaml's hint or the tool's schema). */
      searchTool: nullable(object({ name: string({ minLength: 1 }), parameter: string({ minLength: 1 }), chosenBy: oneOf(["hint", "schema"]) })),
      /** Why recall through tools was not measured ("no tools", or what the tools lack); null when it was. */
      recallViaToolsNotMeasured: nullable(string()),
      tokensRemovedRatio: share(),
      compactions: integer({ minimum: 0 }),
    }),
  ),
});

export type QualitySuite = Infer<typeof qualityShape>;
export type QualityEngineResult = QualitySuite["engines"][number];

/** "100.0 % (lcm_grep)", "no tools", "not measured": which tool, or why none. */
export function recallViaToolsText(engine: Pick<QualityEngineResult, "recallViaTools" | "searchTool" | "recallViaToolsNotMeasured">): string {
  if (engine.recallViaTools !== null) return `${percent(engine.recallViaTools)}${engine.searchTool ? ` (${engine.searchTool.name})` : ""}`;
  return engine.recallViaToolsNotMeasured === "no tools" ? "no tools" : "not measured";
}

export const qualitySuite = defineSuite({
  name: "quality",
  description: "recall of planted canaries after two compactions, in the active context and through the engine's own tools",
  shape: qualityShape,
  run: async (context) => (await import("./quality.ts")).runQualityBench({ engines: context.engines, seed: context.seed, scratchDir: context.scratchDir }),
  tables: (suite) => [
    {
      id: "quality",
      title: `Recall of ${suite.canaries} planted canaries after compaction`,
      headers: ["Engine", "Recall (active context)", "Recall (via tools)", "Tokens removed", "Compactions"],
      rows: suite.engines.map((engine) => [
        engine.engine,
        percent(engine.recallActive),
        recallViaToolsText(engine),
        percent(engine.tokensRemovedRatio),
        String(engine.compactions),
      ]),
      notes: [
        ...suite.engines.flatMap((engine) =>
          engine.searchTool !== null
            ? [`${engine.engine}: asked ${engine.searchTool.name} (its "${engine.searchTool.parameter}" parameter), ${engine.searchTool.chosenBy === "hint" ? "the search tool its plugin.yaml names" : "found by its schema"}.`]
            : engine.recallViaToolsNotMeasured !== null && engine.recallViaToolsNotMeasured !== "no tools"
              ? [`${engine.engine}: recall via tools not measured: ${engine.recallViaToolsNotMeasured}.`]
              : [],
        ),
        ...warningNotes(suite),
      ],
    },
  ],
  charts: () => [],
  glance: (suite): GlanceColumn[] => [
    { id: "recall-active", header: "Recall in context", table: "quality", cells: suite.engines.map((e) => ({ engine: e.engine, text: percent(e.recallActive), noisy: null })) },
    {
      id: "recall-tools",
      header: "Recall via tools",
      table: "quality",
      cells: suite.engines.map((e) => ({
        engine: e.engine,
        text: e.recallViaTools === null && e.recallViaToolsNotMeasured !== null && e.recallViaToolsNotMeasured !== "no tools" ? `not measured: ${e.recallViaToolsNotMeasured}` : recallViaToolsText(e),
        noisy: null,
      })),
    },
    { id: "tokens-removed", header: "Tokens removed", table: "quality", cells: suite.engines.map((e) => ({ engine: e.engine, text: percent(e.tokensRemovedRatio), noisy: null })) },
  ],
  figures: (suite) => Object.fromEntries(suite.engines.map((e) => [`quality/${e.engine}/recall-active`, { value: e.recallActive, relativeUncertainty: 0, higherIsBetter: true }])),
  join: (a, b) => joinPerEngine(a, b),
  consistency: (suite, path) => {
    for (const [at, engine] of suite.engines.entries()) {
      const where = `${path}.engines[${at}]`;
      const measured = engine.recallViaTools !== null;
      if (measured !== (engine.searchTool !== null)) return { path: `${where}.searchTool`, message: measured ? "is null but recall via tools was measured" : "names a tool but recall via tools was not measured" };
      if (measured === (engine.recallViaToolsNotMeasured !== null))
        return { path: `${where}.recallViaToolsNotMeasured`, message: measured ? "gives a reason although recall via tools was measured" : "is null but recall via tools was not measured" };
    }
    return null;
  },
});
