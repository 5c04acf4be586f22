/** The cache suite: how much of each prompt the simulated provider reads from its prefix cache. */
import { array, integer, number, object, string, type Infer } from "../../util/schema.ts";
import { percent, sig } from "../../util/format.ts";
import { defineSuite, joinPerEngine, suiteShape, warningNotes, type GlanceColumn } from "../suite.ts";

const share = () => number({ minimum: 0, maximum: 1 });

export const cacheShape = suiteShape("cache", "Cache", {
  scenarios: array(string()),
  engines: array(
    object({
      engine: string({ minLength: 1 }),
      turns: integer({ minimum: 0 }),
      hitRatio: share(),
      ceilingHitRatio: share(),
      prefixBreaksPer100Turns: number({ minimum: 0 }),
      needlessSelectionChanges: integer({ minimum: 0 }),
      /** Cache-hit ratio of each turn, in turn order (the line chart). */
      perTurnHitRatio: array(share()),
    }),
  ),
});

export type CacheSuite = Infer<typeof cacheShape>;
export type CacheEngineResult = CacheSuite["engines"][number];

export const cacheSuite = defineSuite({
  name: "cache",
  description: "prompt-cache hit ratio, prefix breaks and needless selection changes per engine, beside the ceiling",
  shape: cacheShape,
  run: async (context) => {
    const [{ runCacheBench }, { CACHE_RETRIES_SCENARIO }] = await Promise.all([import("./cache.ts"), import("./cache-scenarios.ts")]);
    return runCacheBench({ engines: context.engines, seed: context.seed, scratchDir: context.scratchDir, ...(context.quick ? { scenarios: [CACHE_RETRIES_SCENARIO] } : {}) });
  },
  tables: (suite) => [
    {
      id: "cache",
      title: `Prompt-cache stability (${suite.scenarios.join(", ")})`,
      headers: ["Engine", "Turns", "Hit ratio", "Ceiling", "Prefix breaks / 100 turns", "Needless selection changes"],
      rows: suite.engines.map((engine) => [
        engine.engine,
        String(engine.turns),
        percent(engine.hitRatio),
        percent(engine.ceilingHitRatio),
        sig(engine.prefixBreaksPer100Turns),
        String(engine.needlessSelectionChanges),
      ]),
      notes: ["Ceiling: the same scenarios with no selection and no compaction.", ...warningNotes(suite)],
    },
  ],
  glance: (suite): GlanceColumn[] => [
    {
      id: "cache-hit",
      header: "Cache-hit ratio (ceiling)",
      table: "cache",
      note: "Cache-hit ratio: cached ÷ prompt tokens over the cache scenarios; the ceiling is the same scenarios with no selection and no compaction.",
      cells: suite.engines.map((e) => ({ engine: e.engine, text: `${percent(e.hitRatio)} (${percent(e.ceilingHitRatio)})`, noisy: null })),
    },
    { id: "prefix-breaks", header: "Prefix breaks", table: "cache", cells: suite.engines.map((e) => ({ engine: e.engine, text: `${sig(e.prefixBreaksPer100Turns)} / 100 turns`, noisy: null })) },
  ],
  charts: (suite) =>
    suite.engines.length === 0
      ? []
      : [
          {
            kind: "line",
            id: "cache",
            caption: "Prompt-cache hit ratio, turn by turn",
            title: "Cache-hit ratio per turn",
            xLabel: "turn",
            yLabel: "cached ÷ prompt tokens",
            xScale: "linear",
            yScale: "linear",
            yDomain: [0, 1],
            xFormat: "plain",
            yFormat: "percent",
            series: suite.engines.map((engine) => ({ engine: engine.engine, points: engine.perTurnHitRatio.map((ratio, turn): [number, number] => [turn + 1, ratio]) })),
          },
        ],
  figures: (suite) => Object.fromEntries(suite.engines.map((e) => [`cache/${e.engine}/hit-ratio`, { value: e.hitRatio, relativeUncertainty: 0, higherIsBetter: true }])),
  join: (a, b) => joinPerEngine(a, b, { scenarios: [...new Set([...a.scenarios, ...b.scenarios])] }),
});
