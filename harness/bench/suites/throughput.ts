import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ContextEngine } from "../../contract/context-engine.ts";
import { disposeEngine } from "../../contract/native.ts";
import type { Message } from "../../contract/types.ts";
import { cloneMessages } from "../../host/clone.ts";
import { sampleTranscript } from "../../testkit/transcript.ts";
import type { HostSharePoint, ThroughputEngineResult, ThroughputSuite } from "./throughput.suite.ts";
import { collectGarbage } from "../collect-garbage.ts";
import { judgeGoal, type Goal } from "../goals.ts";
import { NoiseProbe } from "../noise.ts";
import { estimateReason, noiseReason } from "../reliability.ts";
import { fittedExponentWithInterval, medianWithInterval } from "../stats.ts";
import { DEFAULT_SIZES, runThroughputBench } from "./engine-throughput.ts";
import { measureHostShare } from "./host-share.ts";

export interface ThroughputSuiteOptions {
  engines: Array<{ name: string; create(): ContextEngine | Promise<ContextEngine> }>;
  sizes?: number[];
  seed?: number;
  /** Where its temporary files go (default the system's temporary directory); a bench player gives its suite one it removes even if the player is killed. */
  scratchDir?: string;
}

/** Goals from the issues: linear cost, the compressor's 10k pass, and the host's share of a 10k pass. */
export const THROUGHPUT_GOALS = { exponent: 1.1, compressor10kMs: 100, hostShare10kMs: 10 } as const;
const CONTEXT_LENGTH = 64_000;
const HOST_SHARE_RUNS = 5;
/** The host's share is measured up to this size: the goal is at 10k, and above it the store's setup alone takes seconds a run. */
const HOST_SHARE_MAX_MESSAGES = 10_000;
const ID_STYLE = "deterministic";

/**
 * compress() throughput per engine and transcript size and the heap a pass grows by; and, once
 * for the harness rather than per engine, what the reference host adds around a pass (snapshot,
 * judging the output, the commit to the SQLite store).
 */
export async function runThroughputSuite(options: ThroughputSuiteOptions): Promise<ThroughputSuite> {
  const started = performance.now();
  const sizes = options.sizes ?? DEFAULT_SIZES;
  const seed = options.seed ?? 1;
  const transcripts = new Map(sizes.map((size) => [size, sampleTranscript({ messages: size, seed, idStyle: ID_STYLE })]));
  const probe = new NoiseProbe();
  const raw = await runThroughputBench(options.engines, sizes, { seed, contextLength: CONTEXT_LENGTH, idStyle: ID_STYLE, transcripts, probe, ...(options.scratchDir !== undefined ? { scratchDir: options.scratchDir } : {}) });
  const scratch = mkdtempSync(join(options.scratchDir ?? tmpdir(), "ctxbench-throughput-host-"));
  const engines: ThroughputEngineResult[] = [];
  const hostShare: HostSharePoint[] = [];
  try {
    for (const spec of options.engines) {
      const measured = raw.engines.find((e) => e.engine === spec.name)!;
      const points = [];
      for (const [index, size] of sizes.entries()) {
        const engine = await spec.create();
        const heap = await heapOfOnePass(engine, transcripts.get(size)!, join(scratch, `${spec.name}-${size}`)).finally(() => disposeEngine(engine));
        const c = measured.cases[index]!;
        points.push({
          messages: c.messages,
          medianMs: medianWithInterval(c.samplesMs),
          messagesPerSecond: c.messagesPerSecond,
          tokensPerSecond: c.tokensPerSecond,
          compressionRatio: Number.isFinite(c.compressionRatio) ? c.compressionRatio : 0,
          peakMemoryBytes: heap,
          unreliable: null as string | null,
        });
      }
      const exponent = fittedExponentWithInterval(
        measured.cases.map((c) => c.messages),
        measured.cases.map((c) => c.samplesMs),
      );
      engines.push({ engine: spec.name, fittedExponent: Number.isFinite(exponent.value) ? exponent : null, points });
    }
    for (const size of sizes.filter((size) => size <= HOST_SHARE_MAX_MESSAGES)) {
      const transcript = transcripts.get(size)!;
      hostShare.push({ messages: transcript.length, medianMs: hostShareOf(transcript, scratch, probe), unreliable: null });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const noise = probe.noise();
  for (const engine of engines) for (const point of engine.points) point.unreliable = estimateReason(point.medianMs, noise);
  for (const point of hostShare) point.unreliable = estimateReason(point.medianMs, noise);

  const goals: Goal[] = [];
  for (const e of engines) {
    if (e.fittedExponent !== null) {
      goals.push(
        judgeGoal(
          { id: `exponent/${e.engine}`, engine: e.engine, description: `${e.engine}: fitted scaling exponent of compress() time`, limit: THROUGHPUT_GOALS.exponent, unit: "" },
          e.fittedExponent,
          noiseReason(noise),
        ),
      );
    }
    const tenK = e.points.find((p) => Math.abs(p.messages - 10_000) <= 100);
    if (tenK && e.engine === "compressor") {
      goals.push(
        judgeGoal(
          { id: "compressor-10k", engine: e.engine, description: "compressor: one compress() of a 10k-message transcript", limit: THROUGHPUT_GOALS.compressor10kMs, unit: "ms" },
          tenK.medianMs,
          tenK.unreliable,
        ),
      );
    }
  }
  const hostTenK = hostShare.find((p) => Math.abs(p.messages - 10_000) <= 100);
  if (hostTenK) {
    goals.push(
      judgeGoal(
        { id: "host-share-10k", engine: null, description: "the host's share of a 10k-message pass (snapshot, judging the output, the commit)", limit: THROUGHPUT_GOALS.hostShare10kMs, unit: "ms" },
        hostTenK.medianMs,
        hostTenK.unreliable,
      ),
    );
  }
  return { suite: "throughput", warnings: [], goals, noise, durationMs: performance.now() - started, engines, hostShare };
}

/**
 * One pass on a fresh engine: heapUsed right after the pass minus heapUsed after a full GC just
 * before it, a lower bound of the pass's peak (a collection during the pass can only lower it).
 */
async function heapOfOnePass(engine: ContextEngine, transcript: readonly Message[], home: string): Promise<number> {
  await engine.update_model({ model: "bench", context_length: CONTEXT_LENGTH });
  await engine.on_session_start("throughput", { home, context_length: CONTEXT_LENGTH, model: "bench" });
  const input = cloneMessages(transcript);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const output = await engine.compress(input, null, null, {});
  const heapGrowthBytes = Math.max(0, process.memoryUsage().heapUsed - before);
  await engine.on_session_end("throughput", output);
  return heapGrowthBytes;
}

/**
 * The output of a typical pass, from no engine in particular: the system prompt, one summary and
 * the newest tenth of the transcript from a user message on. The host's work depends on the sizes,
 * not on which engine wrote them.
 */
export function referencePassOutput(transcript: readonly Message[]): Message[] {
  const system = transcript[0]?.role === "system" ? [transcript[0]] : [];
  let cut = Math.max(system.length, Math.floor(transcript.length * 0.9));
  while (cut < transcript.length && transcript[cut]!.role !== "user") cut++;
  const summary: Message = { role: "assistant", content: `Summary of the ${cut - system.length} earlier messages: goals, decisions, files touched and open questions.` };
  return [...system, summary, ...transcript.slice(cut)];
}

/** The host's work around one pass, as the reference host does it (host-share.ts): snapshots, judge the output, commit in place. In ms, over a few runs. */
function hostShareOf(transcript: readonly Message[], dir: string, probe: NoiseProbe) {
  const share = measureHostShare(transcript, referencePassOutput, { runs: HOST_SHARE_RUNS, dir, beforeRun: () => probe.sample() });
  return medianWithInterval(share.totalsMs);
}
