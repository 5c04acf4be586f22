// Prints compress() throughput per engine and transcript size:
//   node --expose-gc --import tsx harness/bench/suites/engine-throughput.run.ts [--json] [--sizes 1000,10000,100000]
// (--expose-gc lets the bench collect garbage between passes, which steadies the medians.)
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CompressorEngine } from "../../../engines/compressor/index.ts";
import { TruncateEngine } from "../../../engines/truncate/index.ts";
import { isContextEngine, type ContextEngine } from "../../contract/context-engine.ts";
import { DEFAULT_SIZES, runThroughputBench, type ThroughputEngineSpec } from "./engine-throughput.ts";

/** Goals of issue 6: linear cost, and the compressor under 100 ms on 10k messages. */
const MAX_EXPONENT = 1.1;
const COMPRESSOR_10K_MS = 100;

const engines: ThroughputEngineSpec[] = [
  { name: "compressor", create: () => new CompressorEngine() },
  { name: "truncate", create: () => new TruncateEngine() },
];
const lcmPath = fileURLToPath(new URL("../../../engines/lcm/index.ts", import.meta.url));
if (existsSync(lcmPath)) {
  const lcm = (await import(lcmPath)) as Record<string, unknown>;
  const Engine = Object.values(lcm).find(
    (value): value is new () => ContextEngine => typeof value === "function" && isContextEngine(safeConstruct(value)),
  );
  if (Engine) engines.push({ name: "lcm", create: () => new Engine() });
}

function safeConstruct(value: unknown): unknown {
  try {
    return new (value as new () => unknown)();
  } catch {
    return null;
  }
}

const sizesArg = process.argv.indexOf("--sizes");
const sizes = sizesArg === -1 ? DEFAULT_SIZES : (process.argv[sizesArg + 1] ?? "").split(",").map(Number).filter((n) => n > 0);
const result = await runThroughputBench(engines, sizes);

if (process.argv.includes("--json")) {
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} else {
  const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : String(n));
  process.stdout.write(`compress() throughput (window ${fmt(result.contextLength)} tokens, seed ${result.seed}, ${result.idStyle} tool-call ids)\n`);
  for (const engine of result.engines) {
    process.stdout.write(
      `  ${engine.engine}: fitted exponent ${engine.exponent.toFixed(2)} wall, ${engine.cpuExponent.toFixed(2)} cpu (goal <= ${MAX_EXPONENT})\n`,
    );
    for (const c of engine.cases) {
      process.stdout.write(
        `    ${fmt(c.messages).padStart(8)} msgs ${fmt(c.inputTokens).padStart(11)} tok: ${c.ms.median.toFixed(1).padStart(8)} ms wall ` +
          `(±${c.ms.mad.toFixed(1)} MAD), ${c.cpuMs.median.toFixed(1).padStart(8)} ms cpu, n=${c.ms.samples}; ` +
          `${fmt(c.messagesPerSecond)} msgs/s, ${fmt(c.tokensPerSecond)} tok/s; ratio ${c.compressionRatio.toFixed(1)}x -> ${fmt(c.outputMessages)} msgs\n`,
      );
    }
  }
  const compressor = result.engines.find((e) => e.engine === "compressor");
  const tenK = compressor?.cases.find((c) => c.messages >= 10_000 && c.messages < 10_100);
  if (tenK) {
    const verdict = (ms: number) => (ms < COMPRESSOR_10K_MS ? "met" : "NOT met");
    process.stdout.write(
      `compressor on 10k messages (goal < ${COMPRESSOR_10K_MS} ms): ${tenK.ms.median.toFixed(1)} ms wall ${verdict(tenK.ms.median)}, ` +
        `${tenK.cpuMs.median.toFixed(1)} ms cpu ${verdict(tenK.cpuMs.median)}\n`,
    );
  }
  for (const engine of result.engines) {
    const verdict = (exponent: number) => (exponent <= MAX_EXPONENT ? "met" : "NOT met");
    process.stdout.write(`${engine.engine} linear scaling: wall ${verdict(engine.exponent)}, cpu ${verdict(engine.cpuExponent)}\n`);
  }
}
