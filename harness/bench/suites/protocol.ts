import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { disposeEngine } from "../../contract/native.ts";
import type { Message } from "../../contract/types.ts";
import { PythonEngineFactory } from "../../engine-protocol/hermes.ts";
import { findPython } from "../../engine-protocol/python.ts";
import type { RemoteEngine } from "../../engine-protocol/remote-engine.ts";
import { assembleRequest } from "../../host/assemble.ts";
import { cloneMessage, cloneMessages } from "../../host/clone.ts";
import { judgeGoal, type Goal } from "../goals.ts";
import { measureInterleaved, type InterleaveOptions } from "../interleave.ts";
import { noiseOf } from "../noise.ts";
import { noiseReason } from "../reliability.ts";
import { compareInterleaved, medianWithInterval, type Estimate } from "../stats.ts";
import { overheadTranscript } from "./overhead.ts";
import { PipeEcho } from "./pipe-floor.ts";

/** Goals from issue 14: what a call across the engine protocol may cost. */
export const PROTOCOL_GOALS = {
  noopRoundTripUs: 100,
  select500RoundTripMs: 2,
  inheritingAssemblyRatio: 1.01,
} as const;

export interface ProtocolBenchOptions {
  /** Messages of the select_context request (default 500). */
  messages?: number;
  /** Timed samples per figure (default 30), each `batch` calls long. */
  samples?: number;
  seed?: number;
  python?: string;
  measure?: InterleaveOptions;
}

export interface ProtocolBenchResult {
  suite: "protocol";
  python: string;
  /** One no-op hook call, host → Python → host, in µs. */
  noopRoundTripUs: Estimate;
  /** The floor under it, timed alternately with it: a bare Python echo over the same pipes (pipe-floor.ts), in µs. */
  pipeFloorUs: Estimate;
  /** The no-op round trip's median ÷ the floor's. */
  noopOverFloor: number;
  /**
   * One select_context of `messages` messages (request, conversation copies, incoming) answered
   * with None, in ms: the host's steady state, where the engine side holds the request's messages
   * from the call before (they go by reference; docs/engine-protocol.md).
   */
  selectRoundTripMs: Estimate;
  /** The same with every message new to the engine side (the first request of a transcript: all sent in full), in ms. */
  selectColdRoundTripMs: Estimate;
  messages: number;
  /** Whole request assembly with a Python engine that inherits select_context, over no engine (interleaved). */
  inheritingAssemblyRatio: Estimate;
  requestsByteIdentical: boolean;
  /** Assemblies timed with the inheriting engine, and the protocol messages the host sent its engine side meanwhile (0: no round trip). */
  inheritingAssemblies: number;
  messagesDuringAssembly: number;
  goals: Goal[];
  durationMs: number;
}

/** Two tiny Python plugins: one inherits every optional hook, one answers select_context with None. */
function writePlugins(root: string): { inheriting: string; selecting: string } {
  const engine = (name: string, extra: string) => `from agent.context_engine import ContextEngine


class Engine(ContextEngine):
    @property
    def name(self):
        return "${name}"

    def update_from_response(self, usage):
        self.last_prompt_tokens = usage.get("prompt_tokens", 0)

    def should_compress(self, prompt_tokens=None):
        return False

    def compress(self, messages, current_tokens=None, focus_topic=None):
        return messages
${extra}

def register(ctx):
    ctx.register_context_engine(Engine())
`;
  const write = (name: string, extra: string) => {
    const directory = join(root, name);
    mkdirSync(directory, { recursive: true });
    writeFileSync(join(directory, "__init__.py"), engine(name, extra));
    return directory;
  };
  return {
    inheriting: write("inheriting", ""),
    selecting: write("selecting", "\n    def select_context(self, request_messages, *, conversation_messages=None, incoming_message=None, budget_tokens=0):\n        return None\n"),
  };
}

/** Timed first requests of a transcript: each call gets a transcript of its own, written just before it. */
const COLD_SAMPLES = 12;

/**
 * Rounds of the interleaved assembly ratio. The two variants differ by far less than the machine's
 * drift, and the run's noise level is the spread of the calibration loop's per-round medians: more
 * rounds than the default 8 so one disturbed round moves neither the ratio nor that spread.
 */
const ASSEMBLY_ROUNDS = 24;

/** Per-call time of `call`, sequentially awaited, in `samples` samples of `batch` calls (after a warm-up). */
async function timeCalls(call: () => Promise<unknown>, samples: number, batch: number): Promise<number[]> {
  return (await timeCallsAlternately([call], samples, batch))[0]!;
}

/** timeCalls of several calls, their samples taken in turn, so a drift of the machine reaches each alike. */
async function timeCallsAlternately(calls: ReadonlyArray<() => Promise<unknown>>, samples: number, batch: number): Promise<number[][]> {
  for (const call of calls) for (let i = 0; i < Math.max(10, batch); i++) await call();
  const perCall = calls.map((): number[] => []);
  for (let sample = 0; sample < samples; sample++) {
    for (const [index, call] of calls.entries()) {
      const started = process.hrtime.bigint();
      for (let i = 0; i < batch; i++) await call();
      perCall[index]!.push(Number(process.hrtime.bigint() - started) / batch);
    }
  }
  return perCall;
}

/**
 * What the engine protocol costs the host with a Python engine: the round trip of a no-op hook,
 * of a 500-message select_context, and whole request assembly with a Python engine that inherits
 * select_context against no engine (the identity check must spare it every round trip).
 */
export async function runProtocolBench(options: ProtocolBenchOptions = {}): Promise<ProtocolBenchResult> {
  const started = performance.now();
  const samples = options.samples ?? 30;
  const count = options.messages ?? 500;
  const python = findPython(options.python);
  const root = mkdtempSync(join(tmpdir(), "ctxbench-protocol-"));
  const engines: RemoteEngine[] = [];
  try {
    const plugins = writePlugins(root);
    let messagesSent = 0;
    const make = async (directory: string, selection: string, counted = false) => {
      const factory = new PythonEngineFactory(
        { directory, selection, mode: "directory" },
        { ...(options.python !== undefined ? { python: options.python } : {}), ...(counted ? { onMessage: (direction: "in" | "out") => void (direction === "out" && messagesSent++) } : {}) },
      );
      const engine = await factory.createFresh({ home: join(root, `${selection}-${counted ? "counted-" : ""}home`) });
      engines.push(engine);
      await engine.update_model({ model: "sim/bench", context_length: 200_000 });
      return engine;
    };
    const inheriting = await make(plugins.inheriting, "inheriting");
    const selecting = await make(plugins.selecting, "selecting");
    // Its own process, every message to it counted: the timed calls above pay no counting.
    const assembling = await make(plugins.inheriting, "inheriting", true);

    const echo = new PipeEcho(python.executable);
    let noop: number[];
    let floor: number[];
    try {
      [noop, floor] = (await timeCallsAlternately([() => inheriting.should_compress(1) as unknown as Promise<unknown>, () => echo.call()], samples, 200)) as [number[], number[]];
    } finally {
      echo.close();
    }

    const transcript: Message[] = overheadTranscript(count, options.seed ?? 1);
    const incomingIndex = transcript.findLastIndex((message) => message.role === "user");
    const wire = transcript.map((message) => ({ ...message }));
    const selectOptions = { conversation_messages: cloneMessages(transcript), incoming_message: cloneMessage(transcript[incomingIndex]!), budget_tokens: 200_000 };
    const select = await timeCalls(() => selecting.select_context!(wire, selectOptions) as Promise<unknown>, samples, 10);
    const cold: number[] = [];
    for (let sample = 0; sample < Math.min(samples, COLD_SAMPLES); sample++) {
      // Another seed writes other messages: none of them was sent before.
      const other = overheadTranscript(count, (options.seed ?? 1) + 1 + sample);
      const otherWire = other.map((message) => ({ ...message }));
      const otherOptions = { conversation_messages: cloneMessages(other), incoming_message: cloneMessage(other[other.findLastIndex((message) => message.role === "user")]!), budget_tokens: 200_000 };
      const started = process.hrtime.bigint();
      await selecting.select_context!(otherWire, otherOptions);
      cold.push(Number(process.hrtime.bigint() - started));
    }

    const assemble = (engine: RemoteEngine | null) => {
      const request = assembleRequest(transcript, engine, { session: "bench", incomingIndex });
      if (request instanceof Promise) throw new Error("assembly with an inheriting engine went asynchronous: the identity check made a round trip");
      return request;
    };
    const requestsByteIdentical = JSON.stringify(assemble(null).messages) === JSON.stringify(assemble(assembling).messages);
    let sink = 0;
    let inheritingAssemblies = 0;
    const messagesBefore = messagesSent;
    const run = await measureInterleaved(
      [
        { name: "no-engine", run: (n) => { for (let i = 0; i < n; i++) sink += assemble(null).messages.length; } },
        {
          name: "python-inheriting",
          run: (n) => {
            for (let i = 0; i < n; i++) sink += assemble(assembling).messages.length;
            inheritingAssemblies += n;
          },
        },
      ],
      { rounds: ASSEMBLY_ROUNDS, ...options.measure },
    );
    const messagesDuringAssembly = messagesSent - messagesBefore;
    if (sink < 0) throw new Error("unreachable");
    const [none, remote] = run.variants as [NonNullable<(typeof run.variants)[0]>, NonNullable<(typeof run.variants)[0]>];
    const ratio = compareInterleaved({ samples: remote.samplesNs, perRound: remote.perRound }, { samples: none.samplesNs, perRound: none.perRound }).ratio;
    const noise = noiseOf(run.calibration.perRound.map((round) => medianWithInterval(round).value));

    const noopRoundTripUs = scaled(medianWithInterval(noop), 1e-3);
    const pipeFloorUs = scaled(medianWithInterval(floor), 1e-3);
    const selectRoundTripMs = scaled(medianWithInterval(select), 1e-6);
    const selectColdRoundTripMs = scaled(medianWithInterval(cold), 1e-6);
    const unreliable = noiseReason(noise);
    const goals = [
      judgeGoal({ id: "protocol-noop-round-trip", engine: null, description: "a no-op hook's round trip to a Python engine", limit: PROTOCOL_GOALS.noopRoundTripUs, unit: "µs" }, noopRoundTripUs),
      judgeGoal({ id: "protocol-select-500", engine: null, description: `a ${count}-message select_context round trip to a Python engine`, limit: PROTOCOL_GOALS.select500RoundTripMs, unit: "ms" }, selectRoundTripMs),
      judgeGoal({ id: "protocol-inheriting-assembly", engine: null, description: "request assembly with a Python engine inheriting select_context ÷ no engine", limit: PROTOCOL_GOALS.inheritingAssemblyRatio, unit: "×" }, ratio, unreliable),
    ];
    return {
      suite: "protocol",
      python: `${python.version} (${python.executable})`,
      noopRoundTripUs,
      pipeFloorUs,
      noopOverFloor: noopRoundTripUs.value / pipeFloorUs.value,
      selectRoundTripMs,
      selectColdRoundTripMs,
      messages: transcript.length,
      inheritingAssemblyRatio: ratio,
      requestsByteIdentical,
      inheritingAssemblies,
      messagesDuringAssembly,
      goals,
      durationMs: performance.now() - started,
    };
  } finally {
    await Promise.all(engines.map((engine) => disposeEngine(engine)));
    rmSync(root, { recursive: true, force: true });
  }
}

function scaled(estimate: Estimate, factor: number): Estimate {
  return { value: estimate.value * factor, low: estimate.low * factor, high: estimate.high * factor };
}
