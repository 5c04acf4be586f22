/** Benchmark results as plain tables (strings only), shared by the terminal, markdown and html formats. */
import { bytes, duration, nanoseconds, percent, sig, times, withThousands } from "./numbers.ts";
import { goalBound, type BenchSuiteResult, type ResultJson } from "./result.ts";

export interface Table {
  id: string;
  title: string;
  headers: string[];
  rows: string[][];
  /** Sentences under the table: context, fitted exponents, tinybench warnings. */
  notes: string[];
}

const warningNotes = (suite: BenchSuiteResult) => suite.warnings.map((warning) => `warning: ${warning}`);

function suiteTable(suite: BenchSuiteResult): Table {
  switch (suite.suite) {
    case "overhead":
      return {
        id: "overhead",
        title: `Request assembly overhead (${suite.messagesPerRequest}-message request)`,
        headers: ["Variant", "Stage", "Median", "MAD", "p99", "Samples", "vs no engine (95 % CI)", "vs JSON.stringify"],
        rows: suite.variants.map((variant) => [
          variant.variant,
          variant.stage,
          nanoseconds(variant.medianNs),
          nanoseconds(variant.madNs),
          nanoseconds(variant.p99Ns),
          withThousands(variant.samples),
          variant.ratioToNoEngine
            ? `${times(variant.ratioToNoEngine.ratio)} (${variant.ratioToNoEngine.ciLow.toFixed(3)}–${variant.ratioToNoEngine.ciHigh.toFixed(3)})`
            : "1.000× (baseline)",
          variant.ratioToStringify === null ? "–" : times(variant.ratioToStringify),
        ]),
        notes: [
          `JSON.stringify floor: ${nanoseconds(suite.stringifyFloorNs)} per request.`,
          suite.requestsByteIdentical
            ? "Requests built with no engine and with an inheriting engine were byte-identical."
            : "Requests built with no engine and with an inheriting engine DIFFERED.",
          ...warningNotes(suite),
        ],
      };
    case "cache":
      return {
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
      };
    case "throughput":
      return {
        id: "throughput",
        title: "Compression throughput",
        headers: ["Engine", "Messages", "Median pass", "Messages/s", "Tokens/s", "Compression", "Host share", "Heap growth"],
        rows: suite.engines.flatMap((engine) =>
          engine.points.map((point) => [
            engine.engine,
            withThousands(point.messages),
            duration(point.medianMs),
            withThousands(point.messagesPerSecond),
            withThousands(point.tokensPerSecond),
            percent(point.compressionRatio),
            duration(point.hostShareMs),
            bytes(point.peakMemoryBytes),
          ]),
        ),
        notes: [
          ...suite.engines.map((engine) =>
            engine.fittedExponent === null ? `${engine.engine}: too few sizes to fit a scaling exponent.` : `${engine.engine}: time ∝ messages^${engine.fittedExponent.toFixed(2)}.`,
          ),
          ...warningNotes(suite),
        ],
      };
    case "quality":
      return {
        id: "quality",
        title: `Recall of ${suite.canaries} planted canaries after compaction`,
        headers: ["Engine", "Recall (active context)", "Recall (via tools)", "Tokens removed", "Compactions"],
        rows: suite.engines.map((engine) => [
          engine.engine,
          percent(engine.recallActive),
          engine.recallViaTools === null ? "no tools" : percent(engine.recallViaTools),
          percent(engine.tokensRemovedRatio),
          String(engine.compactions),
        ]),
        notes: warningNotes(suite),
      };
    case "store":
      return {
        id: "store",
        title: "Session store",
        headers: ["Appends/s", "Restores/s", "Legacy rows", "Opens to converge", "Longest write lock"],
        rows: [
          [
            withThousands(suite.appendsPerSecond),
            withThousands(suite.restoresPerSecond),
            withThousands(suite.legacyRows),
            String(suite.opensToConverge),
            duration(suite.longestWriteLockMs),
          ],
        ],
        notes: warningNotes(suite),
      };
  }
}

function goalsTable(result: ResultJson): Table | null {
  const rows = result.benchmarks.flatMap((suite) =>
    suite.goals.map((goal) => [suite.suite, goal.description, `${sig(goal.measured, 4)} ${goal.unit}`, `${goalBound(goal)} ${sig(goal.limit, 4)} ${goal.unit}`, goal.met ? "met" : "MISSED"]),
  );
  return rows.length === 0 ? null : { id: "goals", title: "Goals", headers: ["Suite", "Goal", "Measured", "Limit", "Status"], rows, notes: [] };
}

export function benchmarkTables(result: ResultJson): Table[] {
  const goals = goalsTable(result);
  return [...result.benchmarks.map(suiteTable), ...(goals ? [goals] : [])];
}

/** The machine and the run, as label/value pairs. */
export function runInfoPairs(result: ResultJson): [string, string][] {
  const info = result.runInfo;
  return [
    ["Tool", `${info.tool.name} ${info.tool.version}`],
    ["Node", info.node],
    ["OS", info.os],
    ["CPU", `${info.cpu} (${info.cores} cores)`],
    ["Git", info.gitSha ?? "not a git checkout"],
    ["Seed", String(info.seed)],
    ["Command", info.command],
    ["Engines", info.engines.map((engine) => `${engine.name} ${engine.version}`).join(", ") || "none"],
  ];
}
