import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ContextEngine } from "../../contract/context-engine.ts";
import { estimateTokensRough } from "../../contract/tokens.ts";
import type { Message } from "../../contract/types.ts";
import { cloneMessages } from "../../host/clone.ts";
import { judgeOutput } from "../../host/compaction.ts";
import { SessionStore } from "../../store/session-store.ts";
import { sampleTranscript } from "../../../engines/shared/sample-transcript.ts";
import type { Goal, ThroughputEngineResult, ThroughputSuite } from "../../../reports/result.ts";
import { median } from "../stats.ts";
import { DEFAULT_SIZES, runThroughputBench } from "./engine-throughput.ts";

export interface ThroughputSuiteOptions {
  engines: Array<{ name: string; create(): ContextEngine }>;
  sizes?: number[];
  seed?: number;
}

/** Goals from the issues: linear cost, the compressor's 10k pass, and the host's share of a 10k pass. */
export const THROUGHPUT_GOALS = { exponent: 1.1, compressor10kMs: 100, hostShare10kMs: 10 } as const;
const CONTEXT_LENGTH = 64_000;
const HOST_SHARE_RUNS = 5;

/**
 * compress() throughput per engine and transcript size, with what the host adds around a pass
 * (snapshot, output validation, commit to the SQLite store) and the heap a pass grows by.
 */
export async function runThroughputSuite(options: ThroughputSuiteOptions): Promise<ThroughputSuite> {
  const started = performance.now();
  const sizes = options.sizes ?? DEFAULT_SIZES;
  const seed = options.seed ?? 1;
  const raw = await runThroughputBench(options.engines, sizes, { seed, contextLength: CONTEXT_LENGTH });
  const scratch = mkdtempSync(join(tmpdir(), "ctxbench-throughput-host-"));
  const engines: ThroughputEngineResult[] = [];
  try {
    for (const spec of options.engines) {
      const measured = raw.engines.find((e) => e.engine === spec.name)!;
      const points = [];
      for (const [index, size] of sizes.entries()) {
        const transcript = sampleTranscript({ messages: size, seed, idStyle: raw.idStyle });
        const pass = await heapOfOnePass(spec.create(), transcript, join(scratch, `${spec.name}-${size}`));
        const hostShareMs = hostShare(transcript, pass.output, join(scratch, `${spec.name}-${size}.sqlite`));
        const c = measured.cases[index]!;
        points.push({
          messages: c.messages,
          medianMs: c.ms.median,
          messagesPerSecond: c.messagesPerSecond,
          tokensPerSecond: c.tokensPerSecond,
          compressionRatio: Number.isFinite(c.compressionRatio) ? c.compressionRatio : 0,
          hostShareMs,
          peakMemoryBytes: pass.heapGrowthBytes,
        });
      }
      engines.push({ engine: spec.name, fittedExponent: Number.isFinite(measured.exponent) ? measured.exponent : null, points });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  const goals: Goal[] = [];
  for (const e of engines) {
    if (e.fittedExponent !== null) {
      goals.push({ id: `exponent/${e.engine}`, description: `${e.engine}: fitted scaling exponent of compress() time`, limit: THROUGHPUT_GOALS.exponent, measured: e.fittedExponent, unit: "", met: e.fittedExponent <= THROUGHPUT_GOALS.exponent });
    }
    const tenK = e.points.find((p) => Math.abs(p.messages - 10_000) <= 100);
    if (tenK) {
      goals.push({ id: `host-share-10k/${e.engine}`, description: `host's share of a 10k-message pass (${e.engine})`, limit: THROUGHPUT_GOALS.hostShare10kMs, measured: tenK.hostShareMs, unit: "ms", met: tenK.hostShareMs <= THROUGHPUT_GOALS.hostShare10kMs });
      if (e.engine === "compressor") {
        goals.push({ id: "compressor-10k", description: "compressor: one compress() of a 10k-message transcript", limit: THROUGHPUT_GOALS.compressor10kMs, measured: tenK.medianMs, unit: "ms", met: tenK.medianMs <= THROUGHPUT_GOALS.compressor10kMs });
      }
    }
  }
  return { suite: "throughput", warnings: [], goals, durationMs: performance.now() - started, engines };
}

/** A full garbage collection, so heap growth over a pass starts from what is really live. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

/**
 * One pass on a fresh engine. Its heap figure is heapUsed right after the pass minus heapUsed
 * after a full GC just before it: a lower bound of the pass's peak (a collection during the
 * pass can only lower it).
 */
async function heapOfOnePass(engine: ContextEngine, transcript: readonly Message[], home: string): Promise<{ output: Message[]; heapGrowthBytes: number }> {
  engine.update_model({ model: "bench", context_length: CONTEXT_LENGTH });
  await engine.on_session_start("throughput", { home, context_length: CONTEXT_LENGTH, model: "bench" });
  const input = cloneMessages(transcript);
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const output = await engine.compress(input, null, null, {});
  const heapGrowthBytes = Math.max(0, process.memoryUsage().heapUsed - before);
  await engine.on_session_end("throughput", output);
  return { output, heapGrowthBytes };
}

/** The host's work around one pass, as the reference host does it: snapshot, judge the output, commit in place. Median of a few runs, in ms. */
function hostShare(transcript: readonly Message[], output: readonly Message[], storePath: string): number {
  const times: number[] = [];
  const store = SessionStore.open(storePath);
  try {
    for (let run = 0; run < HOST_SHARE_RUNS; run++) {
      const sessionId = `share-${run}`;
      store.appendMessages(sessionId, cloneMessages(transcript));
      const watermark = Math.max(...store.getMessages(sessionId, { includeRowIds: true }).map((m) => Number(m._row_id)));
      const candidate = cloneMessages(output);
      const startedAt = performance.now();
      const snapshot = cloneMessages(transcript);
      const verdict = judgeOutput(candidate, transcript, estimateTokensRough(transcript));
      if (verdict.outcome === "committed") store.compactInPlace(sessionId, candidate, watermark);
      times.push(performance.now() - startedAt);
      if (snapshot.length !== transcript.length) throw new Error("snapshot lost messages");
    }
  } finally {
    store.close();
  }
  return median(times);
}
