import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import type { Message } from "../../contract/types.ts";
import { BatchInserter } from "../../store/batch-insert.ts";
import { openConnection } from "../../store/open-file.ts";
import { bindValues, COPIED_COLUMNS } from "../../store/rows.ts";
import { OlderBuildWriter } from "../../store/older-build-writer.ts";
import { SessionStore } from "../../store/session-store.ts";
import { DEFAULT_BACKFILL_BUDGET_MS, DEFAULT_BACKFILL_CHUNK } from "../../store/backfill.ts";
import type { NoiseProbe } from "../noise.ts";

/** Figures of the session-store benchmark (plain data, ready for the result JSON). */
export interface StoreBenchResult {
  suite: "store";
  /** `loadAverage` is the 1-minute load when the run started: figures from a busy machine are lower. */
  machine: { cpu: string; cores: number; node: string; platform: string; arch: string; loadAverage: number };
  append: {
    rows: number;
    batchSize: number;
    /** Where the batches go (the uid index stays local to a session, so many sessions is the normal case). */
    layout: string;
    /** Median of the timed repetitions, wall clock. */
    appendsPerSecond: number;
    samplesPerSecond: number[];
    /** The diagnostic variants below were measured (false: the headline figures only, as the main job takes them; they are then 0). */
    detailed: boolean;
    /** Rows per second of this process's CPU time (user + system): less sensitive to a busy machine. */
    appendsPerCpuSecond: number;
    /** The same rows through the store's SQL alone (pre-encoded, no validation or minting): SQLite's share of an append here. */
    rawSqliteRowsPerSecond: number;
    /** Every row into one session: each batch dirties uid-index pages all over that session's range (worst case). */
    /** Appends into a fresh store that also has upstream's (session_id, timestamp) index, measured alternately with the headline: what leaving it out buys. */
    withUpstreamTimestampIndexAppendsPerSecond: number;
    /** Ten batches go to each session (sessions of 10,000 messages): later batches land among a session's earlier uids. */
    tenThousandRowSessionsAppendsPerSecond: number;
    singleSessionAppendsPerSecond: number;
    singleSessionAppendsPerCpuSecond: number;
    goalPerSecond: number;
    meetsGoal: boolean;
  };
  restore: {
    sessionMessages: number;
    restores: number;
    restoresPerSecond: number;
    /** Restores per second in each tenth of the measured second. */
    samplesPerSecond: number[];
    messagesPerSecond: number;
  };
  upgrade: {
    legacyRows: number;
    chunk: number;
    budgetMs: number;
    /** Opens until every legacy row had a uid and the marker was set. */
    opensToConverge: number;
    slices: number;
    /** The longest single backfill slice, i.e. the longest write lock the backfill held. */
    longestSliceMs: number;
    medianSliceMs: number;
    p95SliceMs: number;
    /** The one-off layout transaction of the first open (columns, uid index, trigger). */
    layoutUpgradeMs: number;
    longestWriteLockMs: number;
    goalSliceMs: number;
    meetsGoal: boolean;
    buildSeconds: number;
    convergeSeconds: number;
  };
}

export interface StoreBenchOptions {
  /** Rows appended in the append measurement (default 200,000). */
  rows?: number;
  /** Rows of the legacy v30 store upgraded in the convergence measurement (default 1,000,000). */
  legacyRows?: number;
  /** A scratch directory; the benchmark's files are created and removed under it. */
  dir: string;
  /**
   * Also measure the diagnostic variants (upstream's timestamp index, raw SQL, long and single
   * sessions) that explain the headline figure (default true). The result JSON reports only the
   * headline, so the suite skips them.
   */
  detailed?: boolean;
  /** Sampled between timed repetitions: the machine's noise beside the figures. */
  probe?: NoiseProbe;
}

const APPEND_BATCH = 1000;
const UPSTREAM_TIMESTAMP_INDEX_SQL = "CREATE INDEX idx_messages_session ON messages(session_id, timestamp)";
const APPEND_REPEATS = 3;
const RESTORE_SESSION = 200;
const RESTORE_SECONDS = 1;

function conversation(count: number, label: string): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 4 === 2) {
      messages.push({
        role: "assistant",
        content: null,
        tool_calls: [{ id: `call_${label}_${i}`, type: "function", function: { name: "read_file", arguments: `{"path":"src/file_${i}.ts"}` } }],
      });
    } else if (i % 4 === 3) {
      messages.push({ role: "tool", tool_call_id: `call_${label}_${i - 1}`, content: `contents of src/file_${i - 1}.ts `.repeat(4) });
    } else {
      messages.push({ role: i % 4 === 0 ? "user" : "assistant", content: `${label} message ${i}: a sentence of ordinary chat length for the store.` });
    }
  }
  return messages;
}

function seconds(work: () => void): number {
  const started = performance.now();
  work();
  return (performance.now() - started) / 1000;
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}


function cpuSeconds(work: () => void): { wall: number; cpu: number } {
  const cpuBefore = process.cpuUsage();
  const wall = seconds(work);
  const used = process.cpuUsage(cpuBefore);
  return { wall, cpu: (used.user + used.system) / 1e6 };
}

function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** Session each batch goes to: its own session (the headline), or one session for every row (the worst case). */
type AppendLayout = "session-per-batch" | "ten-batches-per-session" | "single-session";
function sessionFor(layout: AppendLayout, batch: number): string {
  if (layout === "single-session") return "bench";
  const session = layout === "ten-batches-per-session" ? Math.floor(batch / 10) : batch;
  return `bench-${String(session).padStart(6, "0")}`;
}

/**
 * Each batch is built just before its append and only the appends are timed: a host appends
 * messages it has just produced, not a pre-built heap of every row the run will write.
 */
function timedAppends(path: string, rows: number, layout: AppendLayout, extraIndexSql?: string): { perWall: number; perCpu: number } {
  const store = SessionStore.open(path);
  if (extraIndexSql !== undefined) {
    const side = openConnection(path, 5000);
    side.exec(extraIndexSql);
    side.close();
  }
  let wall = 0;
  let cpu = 0;
  for (let from = 0, b = 0; from < rows; from += APPEND_BATCH, b++) {
    const batch = conversation(Math.min(APPEND_BATCH, rows - from), `b${b}`);
    const timed = cpuSeconds(() => store.appendMessages(sessionFor(layout, b), batch));
    wall += timed.wall;
    cpu += timed.cpu;
  }
  store.close();
  rmSync(path, { force: true });
  return { perWall: Math.round(rows / wall), perCpu: Math.round(rows / cpu) };
}

function benchAppend(dir: string, rows: number, detailed: boolean, probe: NoiseProbe | undefined): StoreBenchResult["append"] {
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  const rawSamples: number[] = [];
  const withTimestampIndex: number[] = [];
  for (let repeat = 0; repeat <= APPEND_REPEATS; repeat++) {
    probe?.sample();
    const run = timedAppends(join(dir, `append-${repeat}.db`), rows, "session-per-batch");
    const indexed = detailed ? timedAppends(join(dir, `indexed-${repeat}.db`), rows, "session-per-batch", UPSTREAM_TIMESTAMP_INDEX_SQL) : null;
    if (repeat === 0) continue; // warm-up
    samples.push(run.perWall);
    cpuSamples.push(run.perCpu);
    if (indexed !== null) withTimestampIndex.push(indexed.perWall);
    if (detailed) rawSamples.push(rawSqliteRate(join(dir, `raw-${repeat}.db`), rows));
  }
  const longSessions = detailed ? timedAppends(join(dir, "append-long.db"), rows, "ten-batches-per-session") : { perWall: 0, perCpu: 0 };
  const single = detailed ? timedAppends(join(dir, "append-single.db"), rows, "single-session") : { perWall: 0, perCpu: 0 };
  const appendsPerSecond = median(samples);
  return {
    rows,
    batchSize: APPEND_BATCH,
    layout: "each batch of 1000 appended to its own session",
    appendsPerSecond,
    samplesPerSecond: samples,
    detailed,
    appendsPerCpuSecond: median(cpuSamples),
    rawSqliteRowsPerSecond: median(rawSamples),
    withUpstreamTimestampIndexAppendsPerSecond: median(withTimestampIndex),
    tenThousandRowSessionsAppendsPerSecond: longSessions.perWall,
    singleSessionAppendsPerSecond: single.perWall,
    singleSessionAppendsPerCpuSecond: single.perCpu,
    goalPerSecond: 150_000,
    meetsGoal: appendsPerSecond >= 150_000,
  };
}

/**
 * Rows per second through the store's SQL alone: the same rows (every identity column set, a
 * fresh uid each) pre-encoded, then inserted with the store's multi-row statements on a
 * connection opened like the store's. The gap to the append figure is validation, minting and
 * encoding in TypeScript.
 */
function rawSqliteRate(path: string, rows: number): number {
  const store = SessionStore.open(path);
  const template = conversation(APPEND_BATCH, "b0");
  store.appendMessages("template", template);
  store.close();
  const encoded = template.map((message) => [...bindValues(message, message.timestamp as number), 1, 0]);
  const uidColumn = COPIED_COLUMNS.indexOf("message_uid");
  const db = openConnection(path, 5000);
  const inserter = new BatchInserter(db);
  const session = db.prepare("INSERT INTO sessions (id, started_at) VALUES (?, 0)");
  const batches = Array.from({ length: Math.ceil(rows / APPEND_BATCH) }, (_, b) =>
    encoded.slice(0, Math.min(APPEND_BATCH, rows - b * APPEND_BATCH)).map((row) => {
      const copy = [...row];
      copy[uidColumn] = randomBytes(16).toString("hex");
      return copy;
    }),
  );
  const append = db.transaction((b: number) => {
    const id = sessionFor("session-per-batch", b);
    session.run(id);
    inserter.insert(id, batches[b] as unknown[][]);
  });
  const elapsed = seconds(() => batches.forEach((_, b) => append.immediate(b)));
  db.close();
  rmSync(path, { force: true });
  return Math.round(rows / elapsed);
}

function benchRestore(dir: string): StoreBenchResult["restore"] {
  const path = join(dir, "restore.db");
  const store = SessionStore.open(path);
  store.appendMessages("bench", conversation(RESTORE_SESSION, "r"));
  store.getMessages("bench");
  let restores = 0;
  const slices = 10;
  const samplesPerSecond: number[] = [];
  const started = performance.now();
  for (let slice = 0; slice < slices; slice++) {
    const sliceStarted = performance.now();
    let sliceRestores = 0;
    while (performance.now() - sliceStarted < (RESTORE_SECONDS * 1000) / slices) {
      store.getMessages("bench");
      sliceRestores += 1;
    }
    restores += sliceRestores;
    samplesPerSecond.push(Math.round(sliceRestores / ((performance.now() - sliceStarted) / 1000)));
  }
  const elapsed = (performance.now() - started) / 1000;
  store.close();
  rmSync(path, { force: true });
  const restoresPerSecond = Math.round(restores / elapsed);
  return { sessionMessages: RESTORE_SESSION, restores, restoresPerSecond, samplesPerSecond, messagesPerSecond: restoresPerSecond * RESTORE_SESSION };
}

function benchUpgrade(dir: string, legacyRows: number): StoreBenchResult["upgrade"] {
  const path = join(dir, "legacy.db");
  const buildSeconds = seconds(() => {
    const writer = OlderBuildWriter.open(path);
    const perSession = 10_000;
    for (let written = 0, session = 0; written < legacyRows; written += perSession, session++) {
      writer.append(`legacy-${session}`, conversation(Math.min(perSession, legacyRows - written), `l${session}`));
    }
    writer.close();
  });
  let opens = 0;
  let slices = 0;
  let longestSliceMs = 0;
  let layoutUpgradeMs = 0;
  const sliceDurations: number[] = [];
  let done = false;
  const convergeSeconds = seconds(() => {
    while (!done) {
      const store = SessionStore.open(path);
      opens += 1;
      const report = store.openReport;
      if (opens === 1) layoutUpgradeMs = report.layoutMs;
      slices += report.backfill.slices;
      longestSliceMs = Math.max(longestSliceMs, report.backfill.longestSliceMs);
      sliceDurations.push(...report.backfill.sliceDurationsMs);
      done = report.backfill.done;
      store.close();
    }
  });
  const check = SessionStore.open(path);
  const missing = check.listSessions().reduce((sum, session) => sum + check.getRows(session.id).filter((row) => row.message_uid === null).length, 0);
  check.close();
  if (missing !== 0) throw new Error(`the upgrade converged but ${missing} rows still lack a uid`);
  rmSync(path, { force: true });
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return {
    legacyRows,
    chunk: DEFAULT_BACKFILL_CHUNK,
    budgetMs: DEFAULT_BACKFILL_BUDGET_MS,
    opensToConverge: opens,
    slices,
    longestSliceMs: round(longestSliceMs),
    medianSliceMs: round(median(sliceDurations)),
    p95SliceMs: round(percentile(sliceDurations, 0.95)),
    layoutUpgradeMs: round(layoutUpgradeMs),
    longestWriteLockMs: round(Math.max(longestSliceMs, layoutUpgradeMs)),
    goalSliceMs: 50,
    meetsGoal: longestSliceMs <= 50,
    buildSeconds: Math.round(buildSeconds * 100) / 100,
    convergeSeconds: Math.round(convergeSeconds * 100) / 100,
  };
}

/** Appends per second with minting, restores per second, and the convergence of a legacy store's upgrade. */
export async function runStoreBench(options: StoreBenchOptions): Promise<StoreBenchResult> {
  const dir = join(options.dir, `store-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const cpu = cpus()[0];
    return {
      suite: "store",
      machine: {
        cpu: cpu?.model ?? "unknown",
        cores: cpus().length,
        node: process.version,
        platform: process.platform,
        arch: process.arch,
        loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
      },
      append: benchAppend(dir, options.rows ?? 200_000, options.detailed ?? true, options.probe),
      restore: benchRestore(dir),
      upgrade: benchUpgrade(dir, options.legacyRows ?? 1_000_000),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
