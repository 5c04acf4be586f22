/**
 * The host's share of one compaction pass, part by part, on its own:
 * `npx tsx harness/bench/suites/host-share.run.ts [--messages N] [--runs N]` (default 10,000 messages and the
 * throughput suite's reference pass output). Exits 1 when the total misses the goal at 10,000 messages.
 */
import { sampleTranscript } from "../../testkit/transcript.ts";
import { measureHostShare } from "./host-share.ts";
import { referencePassOutput, THROUGHPUT_GOALS } from "./throughput.ts";

const flag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isInteger(value) && value > 0 ? value : fallback;
};
const messages = flag("--messages", 10_000);
const runs = flag("--runs", 7);
const transcript = sampleTranscript({ messages, seed: 1 });
const share = measureHostShare(transcript, referencePassOutput, { runs });
const goalMs = messages === 10_000 ? THROUGHPUT_GOALS.hostShare10kMs : null;
const { totalsMs, ...figures } = share;
process.stdout.write(`${JSON.stringify({ messages, ...figures, runsMs: totalsMs, goalMs, met: goalMs === null ? null : share.totalMs <= goalMs }, null, 2)}\n`);
if (goalMs !== null && share.totalMs > goalMs) process.exitCode = 1;
