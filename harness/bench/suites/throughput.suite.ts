/** The throughput suite: compress() per engine and transcript size, and what the host adds around a pass. */
import { array, integer, nullable, number, object, string, type Infer } from "../../util/schema.ts";
import { bytes, sig, times, withInterval, withThousands } from "../../util/format.ts";
import { relativeHalfWidth } from "../stats.ts";
import { defineSuite, estimateSchema, flagged, joinPerEngine, noiseNote, suiteShape, unreliableNotes, warningNotes, type GlanceColumn, type Table } from "../suite.ts";

const ratio = () => number({ minimum: 0 });

export const throughputShape = suiteShape("throughput", "Throughput", {
  engines: array(
    object({
      engine: string({ minLength: 1 }),
      /** Exponent k of time ∝ messages^k fitted over the points; null with fewer than two points. */
      fittedExponent: nullable(estimateSchema()),
      points: array(
        object({
          messages: integer({ minimum: 0 }),
          /** One compress() pass. */
          medianMs: estimateSchema(0),
          messagesPerSecond: ratio(),
          tokensPerSecond: ratio(),
          /** Input tokens ÷ output tokens (2 = halved). */
          compressionRatio: ratio(),
          /** Heap grown by one pass over a fully collected heap: a lower bound of the pass's peak. */
          peakMemoryBytes: integer({ minimum: 0 }),
          unreliable: nullable(string()),
        }),
      ),
    }),
  ),
  /** The reference host's work around one pass (snapshot, judging the output, the commit): a harness figure. */
  hostShare: array(object({ messages: integer({ minimum: 0 }), medianMs: estimateSchema(0), unreliable: nullable(string()) })),
});

export type ThroughputSuite = Infer<typeof throughputShape>;
export type ThroughputEngineResult = ThroughputSuite["engines"][number];
export type HostSharePoint = ThroughputSuite["hostShare"][number];

/** The host's share of a pass: measured once for the harness, not per engine. */
function hostShareTable(suite: ThroughputSuite): Table[] {
  if (suite.hostShare.length === 0) return [];
  return [
    {
      id: "host-share",
      harness: true,
      title: "The host's share of a compaction pass",
      headers: ["Messages", "Snapshot + judging + commit (95 % CI)"],
      rows: suite.hostShare.map((point) => [withThousands(point.messages), flagged(withInterval(point.medianMs, "ms"), point.unreliable)]),
      notes: [
        "The reference host's work around one pass whatever the engine: a deep snapshot, judging the output, committing it to the SQLite store.",
        ...unreliableNotes(suite.hostShare.map((p) => ({ label: `${withThousands(p.messages)} messages`, unreliable: p.unreliable }))),
      ],
    },
  ];
}

/** The transcript size the at-a-glance columns quote; a transcript within 1 % of it counts as it. */
const GLANCE_MESSAGES = 10_000;

function glanceColumns(suite: ThroughputSuite): GlanceColumn[] {
  const pass: GlanceColumn["cells"] = [];
  const compression: GlanceColumn["cells"] = [];
  const exponent: GlanceColumn["cells"] = [];
  for (const engine of suite.engines) {
    const point = [...engine.points].sort((a, b) => Math.abs(a.messages - GLANCE_MESSAGES) - Math.abs(b.messages - GLANCE_MESSAGES))[0];
    if (point !== undefined) {
      const at = Math.abs(point.messages - GLANCE_MESSAGES) <= GLANCE_MESSAGES / 100 ? "" : ` at ${withThousands(point.messages)} msgs`;
      pass.push({ engine: engine.engine, text: `${withInterval(point.medianMs, "ms")}${at}`, noisy: point.unreliable });
      compression.push({ engine: engine.engine, text: `${times(point.compressionRatio)}${at}`, noisy: null });
    }
    exponent.push({ engine: engine.engine, text: engine.fittedExponent === null ? "too few sizes" : withInterval(engine.fittedExponent, ""), noisy: null });
  }
  return [
    { id: "throughput", header: "compress() at 10k msgs", table: "throughput", cells: pass },
    { id: "compression", header: "Compression at 10k", table: "throughput", note: "Compression: tokens in ÷ tokens out of one compress() pass.", cells: compression },
    { id: "scaling", header: "Scaling exponent", table: "throughput", note: "Scaling exponent: k of compress() time ∝ messages^k, fitted over every size measured (1 = linear, 95 % CI).", cells: exponent },
  ];
}

export const throughputSuite = defineSuite({
  name: "throughput",
  description: "compress() time per engine at growing transcript sizes, the fitted scaling exponent, the host's share and heap growth",
  shape: throughputShape,
  run: async (context) => (await import("./throughput.ts")).runThroughputSuite({ engines: context.engines, seed: context.seed, scratchDir: context.scratchDir, ...(context.quick ? { sizes: [1_000, 4_000, 10_000] } : {}) }),
  tables: (suite) => [
    {
      id: "throughput",
      title: "Compression throughput",
      headers: ["Engine", "Messages", "Median pass (95 % CI)", "Messages/s", "Tokens/s", "Compression", "Heap growth"],
      rows: suite.engines.flatMap((engine) =>
        engine.points.map((point) => [
          engine.engine,
          withThousands(point.messages),
          flagged(withInterval(point.medianMs, "ms"), point.unreliable),
          sig(point.messagesPerSecond),
          sig(point.tokensPerSecond),
          times(point.compressionRatio),
          bytes(point.peakMemoryBytes),
        ]),
      ),
      notes: [
        "Compression: tokens in ÷ tokens out of one pass.",
        ...suite.engines.map((engine) =>
          engine.fittedExponent === null
            ? `${engine.engine}: too few sizes to fit a scaling exponent.`
            : `${engine.engine}: time ∝ messages^k, k = ${withInterval(engine.fittedExponent, "")} (1 = linear; 95 % CI).`,
        ),
        ...noiseNote(suite.noise),
        ...unreliableNotes(suite.engines.flatMap((e) => e.points.map((p) => ({ label: `${e.engine} at ${withThousands(p.messages)}`, unreliable: p.unreliable })))),
        ...warningNotes(suite),
      ],
    },
    ...hostShareTable(suite),
  ],
  glance: glanceColumns,
  charts: (suite) =>
    suite.engines.length === 0
      ? []
      : [
          {
            kind: "line",
            id: "throughput",
            caption: "Throughput against transcript size (log–log)",
            title: "Messages compressed per second against transcript size",
            xLabel: "messages in the transcript",
            yLabel: "messages per second",
            xScale: "log",
            yScale: "log",
            xFormat: "thousands",
            yFormat: "compact",
            markers: true,
            series: suite.engines.map((engine) => ({ engine: engine.engine, points: engine.points.map((point): [number, number] => [point.messages, point.messagesPerSecond]) })),
          },
        ],
  figures: (suite) =>
    Object.fromEntries([
      ...suite.engines.flatMap((e) => e.points.map((p) => [`throughput/${e.engine}/${p.messages}`, { value: p.messagesPerSecond, relativeUncertainty: relativeHalfWidth(p.medianMs), higherIsBetter: true }])),
      ...suite.hostShare.map((p) => [`throughput/host-share/${p.messages}`, { value: p.medianMs.value, relativeUncertainty: relativeHalfWidth(p.medianMs), higherIsBetter: false }]),
    ]),
  join: (a, b) => joinPerEngine(a, b),
});
