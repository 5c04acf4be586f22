/** Benchmark results as plain tables (strings only), shared by the terminal, markdown and html formats. */
import { addedNanoseconds, bytes, exact, nanoseconds, percent, sig, times, withInterval, withThousands } from "./numbers.ts";
import { goalBound, RERUN_ADVICE, type BenchSuiteResult, type Goal, type ResultJson, type RunNoise } from "./result.ts";

export interface Table {
  id: string;
  title: string;
  headers: string[];
  rows: string[][];
  /** Sentences under the table: context, fitted exponents, tinybench warnings. */
  notes: string[];
}

/** Appended to a figure that cannot be trusted; the reason is a note under its table. */
export const NOISY_MARK = "(noisy)";

/** Selection-stage baselines cost a few ns: a ratio to them says nothing, the ns added do. */
const ABSOLUTE_BELOW_NS = 100;

const warningNotes = (suite: BenchSuiteResult) => suite.warnings.map((warning) => `warning: ${warning}`);

export function noiseNote(noise: RunNoise | null): string[] {
  if (noise === null) return [];
  const spread = percent(noise.calibrationSpread);
  return [
    noise.noisy
      ? `Noise: identical calibration work varied by ${spread} during this suite (limit ${percent(noise.limit)}): ${RERUN_ADVICE}.`
      : `Noise: identical calibration work measured alongside varied by ${spread} (limit ${percent(noise.limit)}).`,
  ];
}

const flagged = (text: string, unreliable: string | null) => (unreliable === null ? text : `${text} ${NOISY_MARK}`);

function unreliableNotes(rows: { label: string; unreliable: string | null }[]): string[] {
  const reasons = new Map<string, string[]>();
  for (const row of rows) if (row.unreliable !== null) reasons.set(row.unreliable, [...(reasons.get(row.unreliable) ?? []), row.label]);
  return [...reasons].map(([reason, labels]) => `${NOISY_MARK} ${labels.join(", ")}: ${reason} — ${RERUN_ADVICE}.`);
}

function suiteTable(suite: BenchSuiteResult): Table {
  switch (suite.suite) {
    case "overhead":
      return {
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
      };
    case "quality":
      return {
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
      };
    case "store":
      return {
        id: "store",
        title: "Session store",
        headers: ["Appends/s (95 % CI)", "Restores/s (95 % CI)", "Legacy rows", "Opens to converge", "Longest write lock"],
        rows: [
          [
            withInterval(suite.appendsPerSecond, ""),
            withInterval(suite.restoresPerSecond, ""),
            withThousands(suite.legacyRows),
            String(suite.opensToConverge),
            nanoseconds(suite.longestWriteLockMs * 1e6),
          ],
        ],
        notes: [...noiseNote(suite.noise), ...warningNotes(suite)],
      };
  }
}

/** The host's share of a pass: measured once for the harness, not per engine. */
function hostShareTable(result: ResultJson): Table | null {
  const throughput = result.benchmarks.find((suite) => suite.suite === "throughput");
  if (throughput === undefined || throughput.suite !== "throughput" || throughput.hostShare.length === 0) return null;
  return {
    id: "host-share",
    title: "The host's share of a compaction pass",
    headers: ["Messages", "Snapshot + judging + commit (95 % CI)"],
    rows: throughput.hostShare.map((point) => [withThousands(point.messages), flagged(withInterval(point.medianMs, "ms"), point.unreliable)]),
    notes: [
      "The reference host's work around one pass whatever the engine: a deep snapshot, judging the output, committing it to the SQLite store.",
      ...unreliableNotes(throughput.hostShare.map((p) => ({ label: `${withThousands(p.messages)} messages`, unreliable: p.unreliable }))),
    ],
  };
}

/** "100.0 % (lcm_grep)", "no tools", "not measured": which tool, or why none. */
export function recallViaToolsText(engine: { recallViaTools: number | null; searchTool: { name: string } | null; recallViaToolsNotMeasured: string | null }): string {
  if (engine.recallViaTools !== null) return `${percent(engine.recallViaTools)}${engine.searchTool ? ` (${engine.searchTool.name})` : ""}`;
  return engine.recallViaToolsNotMeasured === "no tools" ? "no tools" : "not measured";
}

export function goalStatusText(goal: Goal): string {
  return goal.status === "met" ? "met" : goal.status === "missed" ? "MISSED" : RERUN_ADVICE;
}

function goalMeasured(goal: Goal): string {
  return goal.interval === null ? exact(goal.measured, goal.unit) : withInterval({ value: goal.measured, ...goal.interval }, goal.unit);
}

/** The goals of the engines' figures, or of the harness's own (engine null): each in its own section. */
function goalsTable(result: ResultJson, whose: "engines" | "harness"): Table | null {
  const goals = result.benchmarks.flatMap((suite) => suite.goals.map((goal) => ({ suite: suite.suite, goal }))).filter(({ goal }) => (goal.engine === null) === (whose === "harness"));
  if (goals.length === 0) return null;
  const rows = goals.map(({ suite, goal }) => [suite, ...(whose === "engines" ? [goal.engine!] : []), goal.description, goalMeasured(goal), `${goalBound(goal)} ${exact(goal.limit, goal.unit)}`, goalStatusText(goal)]);
  const reasons = goals.filter(({ goal }) => goal.reason !== undefined).map(({ goal }) => `${goal.id}: ${goal.reason}.`);
  return {
    id: whose === "engines" ? "goals" : "harness-goals",
    title: whose === "engines" ? "Goals" : "Goals of the harness",
    headers: ["Suite", ...(whose === "engines" ? ["Engine"] : []), "Goal", "Measured (95 % CI)", "Limit", "Status"],
    rows,
    notes: ["A timed goal is met only when its whole interval is within the limit and the run was quiet.", ...reasons],
  };
}

/** Tables of the harness's own figures (the session store, the host's share of a pass), measured once whatever the engines. */
const HARNESS_TABLES = new Set(["store", "host-share", "harness-goals"]);

/** The engines' tables, then the engines' goals. */
export function benchmarkTables(result: ResultJson): Table[] {
  const goals = goalsTable(result, "engines");
  return [...result.benchmarks.map(suiteTable).filter((table) => !HARNESS_TABLES.has(table.id)), ...(goals ? [goals] : [])];
}

/** The harness section: store and host figures and their goals, not repeated per engine. */
export function harnessTables(result: ResultJson): Table[] {
  const host = hostShareTable(result);
  const goals = goalsTable(result, "harness");
  return [...result.benchmarks.map(suiteTable).filter((table) => HARNESS_TABLES.has(table.id)), ...(host ? [host] : []), ...(goals ? [goals] : [])];
}

/** What the harness section says before its tables. */
export const HARNESS_NOTE = "The reference host and its SQLite session store, measured once for the run: these figures are the harness's, the same whichever engine is chosen.";

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
