import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolCallIdStyle } from "../../testkit/tool-call-ids.ts";
import { sampleTranscript } from "../../testkit/transcript.ts";
import type { ContextEngine } from "../../contract/context-engine.ts";
import { estimateTokensRough } from "../../contract/tokens.ts";
import { disposeEngine } from "../../contract/native.ts";
import type { Message } from "../../contract/types.ts";
import type { NoiseProbe } from "../noise.ts";
import { fittedExponent, summarize, type SampleSummary } from "../stats.ts";
import type { EngineFactory } from "../engine-factory.ts";

/**
 * How the cost of one `compress()` pass grows with the transcript: each engine compacts seeded
 * transcripts of increasing size (a deep copy per pass, as the host hands over a private snapshot),
 * and the exponent of a log-log least-squares fit says whether the cost is linear.
 */

export type ThroughputEngineSpec = EngineFactory;

export interface ThroughputOptions {
  /** The model window every engine is configured with (default 64,000 tokens). */
  contextLength?: number;
  seed?: number;
  idStyle?: ToolCallIdStyle;
  /** Timed passes per size; default 15 up to 1k messages, 7 up to 10k, 3 above. */
  runs?: (messages: number) => number;
  /** Transcripts already built for some sizes (with this seed and id style), so a caller builds them once. */
  transcripts?: ReadonlyMap<number, Message[]>;
  /** Sampled before every timed pass: the machine's noise beside the figures. */
  probe?: NoiseProbe;
  /** Where its temporary files go (default the system's temporary directory); a bench player gives its suite one it removes even if the player is killed. */
  scratchDir?: string;
}

export interface ThroughputCase {
  engine: string;
  messages: number;
  inputTokens: number;
  outputTokens: number;
  outputMessages: number;
  /** Input tokens over output tokens (2 = halved). */
  compressionRatio: number;
  /** Wall-clock milliseconds per pass. */
  ms: SampleSummary;
  /** The passes' wall-clock milliseconds, in the order run. */
  samplesMs: number[];
  /**
   * Process CPU milliseconds (user + system) per pass: steadier than wall time when other work
   * competes for the cores, and the figure the goals are judged on when the machine is loaded.
   */
  cpuMs: SampleSummary;
  messagesPerSecond: number;
  tokensPerSecond: number;
}

export interface EngineThroughput {
  engine: string;
  cases: ThroughputCase[];
  /** Slope of log(median wall ms) on log(messages): 1 is linear. */
  exponent: number;
  /** The same fit on median CPU ms. */
  cpuExponent: number;
}

export interface ThroughputResult {
  sizes: number[];
  contextLength: number;
  seed: number;
  idStyle: ToolCallIdStyle;
  engines: EngineThroughput[];
}

export const DEFAULT_SIZES = [1_000, 10_000, 100_000];

export async function runThroughputBench(
  engines: EngineFactory[],
  sizes: number[] = DEFAULT_SIZES,
  options: ThroughputOptions = {},
): Promise<ThroughputResult> {
  const contextLength = options.contextLength ?? 64_000;
  const seed = options.seed ?? 1;
  const idStyle = options.idStyle ?? "deterministic";
  const runsFor = options.runs ?? defaultRuns;
  const transcripts = new Map(sizes.map((size) => [size, options.transcripts?.get(size) ?? sampleTranscript({ messages: size, seed, idStyle })]));
  const warmup = sampleTranscript({ messages: Math.min(1_000, Math.min(...sizes)), seed: seed + 1, idStyle });
  const home = mkdtempSync(join(options.scratchDir ?? tmpdir(), "ctxbench-throughput-"));
  const results: EngineThroughput[] = [];
  try {
    for (const spec of engines) await passOnce(spec, warmup, contextLength, join(home, `${spec.name}-warmup`));
    const cases = new Map<string, ThroughputCase[]>(engines.map((spec) => [spec.name, []]));
    for (const size of sizes) {
      const transcript = transcripts.get(size) as Message[];
      const inputTokens = estimateTokensRough(transcript);
      const samples = engines.map(() => [] as number[]);
      const cpuSamples = engines.map(() => [] as number[]);
      const outputs: Message[][] = engines.map(() => []);
      // Engines take turns run by run, in an order rotated each run, so drift of the machine hits them alike.
      for (let run = 0; run < runsFor(size); run++) {
        for (let k = 0; k < engines.length; k++) {
          const index = (k + run) % engines.length;
          const spec = engines[index]!;
          options.probe?.sample();
          const pass = await passOnce(spec, transcript, contextLength, join(home, `${spec.name}-${size}-${run}`));
          samples[index]!.push(pass.ms);
          cpuSamples[index]!.push(pass.cpuMs);
          outputs[index] = pass.output;
        }
      }
      engines.forEach((spec, index) => {
        const ms = summarize(samples[index]!);
        const output = outputs[index]!;
        const outputTokens = estimateTokensRough(output);
        cases.get(spec.name)!.push({
          engine: spec.name,
          messages: transcript.length,
          inputTokens,
          outputTokens,
          outputMessages: output.length,
          compressionRatio: outputTokens > 0 ? inputTokens / outputTokens : Number.POSITIVE_INFINITY,
          ms,
          samplesMs: samples[index]!,
          cpuMs: summarize(cpuSamples[index]!),
          messagesPerSecond: transcript.length / (ms.median / 1000),
          tokensPerSecond: inputTokens / (ms.median / 1000),
        });
      });
    }
    for (const spec of engines) {
      const engineCases = cases.get(spec.name)!;
      results.push({
        engine: spec.name,
        cases: engineCases,
        exponent: fittedExponent(
          engineCases.map((c) => c.messages),
          engineCases.map((c) => c.ms.median),
        ),
        cpuExponent: fittedExponent(
          engineCases.map((c) => c.messages),
          engineCases.map((c) => c.cpuMs.median),
        ),
      });
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return { sizes, contextLength, seed, idStyle, engines: results };
}

function defaultRuns(messages: number): number {
  if (messages <= 1_000) return 15;
  if (messages <= 10_000) return 7;
  return 3;
}

/** One timed pass on a fresh engine and a fresh deep copy; setup and teardown are not timed. */
async function passOnce(
  spec: ThroughputEngineSpec,
  transcript: readonly Message[],
  contextLength: number,
  home: string,
): Promise<{ ms: number; cpuMs: number; output: Message[] }> {
  mkdirSync(home, { recursive: true });
  const engine = await spec.create();
  try {
    return await timedPass(engine, transcript, contextLength, home);
  } finally {
    await disposeEngine(engine);
  }
}

async function timedPass(engine: ContextEngine, transcript: readonly Message[], contextLength: number, home: string): Promise<{ ms: number; cpuMs: number; output: Message[] }> {
  await engine.update_model({ model: "bench", context_length: contextLength });
  const sessionId = "throughput";
  await engine.on_session_start(sessionId, { home, context_length: contextLength, model: "bench" });
  const input = structuredClone(transcript) as Message[];
  // Collect the copy's garbage now rather than inside the timed pass (when run with --expose-gc).
  (globalThis as { gc?: () => void }).gc?.();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const output = await engine.compress(input, null, null, {});
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await engine.on_session_end(sessionId, output);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, output };
}
