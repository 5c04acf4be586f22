/** The overhead suite: what the host and each engine add to assembling one request. */
import { integer, nullable, number, object, oneOf, string, boolean, array, type Infer } from "../../util/schema.ts";
import { addedNanoseconds, nanoseconds, times, withInterval, withThousands } from "../../util/format.ts";
import { defineSuite, estimateSchema, flagged, noiseNote, suiteShape, unreliableNotes, warningNotes, type GlanceColumn } from "../suite.ts";
import type { BaselineFigure } from "../baseline.ts";
import { relativeHalfWidth } from "../stats.ts";

const ratio = () => number({ minimum: 0 });

/** Selection-stage baselines cost a few ns: a ratio to them says nothing, the ns added do. */
const ABSOLUTE_BELOW_NS = 100;

export const overheadShape = suiteShape("overhead", "Overhead", {
  messagesPerRequest: integer({ minimum: 0 }),
  stringifyFloorNs: ratio(),
  /** The requests built with no engine and with an inheriting engine were byte-identical. */
  requestsByteIdentical: boolean(),
  variants: array(
    object({
      /** e.g. "no-engine", "inheriting", "select-null", "engine:compressor". */
      variant: string({ minLength: 1 }),
      /** The engine measured: null for the host's own variants (no engine, inheriting, select-null). */
      engine: nullable(string()),
      stage: oneOf(["selection", "assembly"]),
      medianNs: estimateSchema(0),
      madNs: ratio(),
      p99Ns: ratio(),
      samples: integer({ minimum: 0 }),
      /** null for the "no-engine" row itself. */
      ratioToNoEngine: nullable(estimateSchema(0)),
      /** ns per request beyond the no-engine row (the figure to read when that row costs a few ns); null for it. */
      addedNs: nullable(estimateSchema()),
      /** Cost relative to JSON.stringify of the same request; null when not measured for this stage. */
      ratioToStringify: nullable(ratio()),
      /** Why this row's figures cannot be trusted (see harness/bench/reliability.ts); null when they can. */
      unreliable: nullable(string()),
    }),
  ),
});

export type OverheadSuite = Infer<typeof overheadShape>;
export type OverheadVariant = OverheadSuite["variants"][number];

export const overheadSuite = defineSuite({
  name: "overhead",
  description: "the host's identity check and whole request assembly per engine, against no engine and JSON.stringify",
  shape: overheadShape,
  run: async (context) =>
    (await import("./overhead.ts")).runOverheadBench({
      engines: context.engines,
      seed: context.seed,
      scratchDir: context.scratchDir,
      ...(context.quick ? { messages: 200, measure: { rounds: 2, samplesPerRound: 20 } } : {}),
    }),
  // Each player measures the harness's own variants (no engine, inheriting) beside its engine: the first player's are kept.
  combineParts: (parts) => ({
    requestsByteIdentical: parts.every((part) => part.requestsByteIdentical),
    variants: [...(parts[0]?.variants ?? []).filter((variant) => variant.engine === null), ...parts.flatMap((part) => part.variants.filter((variant) => variant.engine !== null))],
  }),
  tables: (suite) => [
    {
      id: "overhead",
      title: `Request assembly overhead (${suite.messagesPerRequest}-message request)`,
      headers: ["Variant", "Stage", "Median (95 % CI)", "MAD", "p99", "Samples", "vs no engine (95 % CI)", "vs JSON.stringify"],
      rows: suite.variants.map((variant) => {
        const base = suite.variants.find((v) => v.stage === variant.stage && v.variant === "no-engine");
        const versus =
          variant.ratioToNoEngine === null
            ? "baseline"
            : base !== undefined && base.medianNs.value < ABSOLUTE_BELOW_NS && variant.addedNs !== null
              ? addedNanoseconds(variant.addedNs)
              : withInterval(variant.ratioToNoEngine, "×");
        return [
          variant.variant,
          variant.stage,
          withInterval(variant.medianNs, "ns"),
          nanoseconds(variant.madNs),
          nanoseconds(variant.p99Ns),
          withThousands(variant.samples),
          flagged(versus, variant.unreliable),
          variant.ratioToStringify === null ? "–" : times(variant.ratioToStringify),
        ];
      }),
      notes: [
        `JSON.stringify floor: ${nanoseconds(suite.stringifyFloorNs)} per request.`,
        `Where the no-engine stage costs under ${ABSOLUTE_BELOW_NS} ns, "vs no engine" is the time added per request instead of a ratio.`,
        suite.requestsByteIdentical
          ? "Requests built with no engine and with an inheriting engine were byte-identical."
          : "Requests built with no engine and with an inheriting engine DIFFERED.",
        ...noiseNote(suite.noise),
        ...unreliableNotes(suite.variants.map((v) => ({ label: `${v.variant} (${v.stage})`, unreliable: v.unreliable }))),
        ...warningNotes(suite),
      ],
    },
  ],
  glance: (suite): GlanceColumn[] => {
    const assembly = suite.variants.filter((variant) => variant.stage === "assembly");
    const base = assembly.find((variant) => variant.variant === "no-engine");
    const cells = assembly.flatMap((variant) => {
      if (variant.engine === null || !variant.variant.startsWith("engine:") || variant.ratioToNoEngine === null) return [];
      const absolute = base !== undefined && base.medianNs.value < ABSOLUTE_BELOW_NS && variant.addedNs !== null;
      return [{ engine: variant.variant.slice("engine:".length), text: absolute ? addedNanoseconds(variant.addedNs!) : withInterval(variant.ratioToNoEngine, "×"), noisy: variant.unreliable }];
    });
    return [
      {
        id: "overhead",
        header: `Assembly ÷ no engine (${withThousands(suite.messagesPerRequest)} msgs)`,
        table: "overhead",
        note: "Assembly: the host building one request with the engine ÷ with no engine, interleaved in one process (95 % CI).",
        cells,
      },
    ];
  },
  charts: (suite) => {
    if (suite.variants.length === 0) return [];
    // Whole-assembly ratios compare engines; the selection stage alone spans a thousandfold and would flatten them.
    const assembly = suite.variants.filter((variant) => variant.stage === "assembly");
    const shown = assembly.length > 0 ? assembly : suite.variants;
    const stages = new Set(shown.map((variant) => variant.stage));
    return [
      {
        kind: "bar",
        id: "overhead",
        caption: `${assembly.length > 0 ? "Whole request assembly" : "Overhead"} per engine, relative to no engine (bars: median ratio; whiskers: 95 % CI)`,
        title: "Request cost relative to no engine",
        valueLabel: "× the cost with no engine",
        valueFormat: "times",
        reference: { value: 1, label: "no engine" },
        bars: shown.map((variant) => ({
          engine: variant.engine,
          label: stages.size > 1 ? `${variant.variant} (${variant.stage})` : variant.variant,
          value: variant.ratioToNoEngine?.value ?? 1,
          ...(variant.ratioToNoEngine ? { low: variant.ratioToNoEngine.low, high: variant.ratioToNoEngine.high } : {}),
        })),
      },
    ];
  },
  figures: (suite) => {
    const figures: Record<string, BaselineFigure> = {};
    for (const v of suite.variants) {
      // Ratios to the no-engine row were measured interleaved in one process: the figure that survives a noisy machine.
      if (v.ratioToNoEngine === null) continue;
      const r = v.ratioToNoEngine;
      figures[`overhead/${v.stage}/${v.variant}`] = { value: r.value, relativeUncertainty: relativeHalfWidth(r), higherIsBetter: false };
    }
    return figures;
  },
});
