import type { ContextEngine } from "../contract/context-engine.ts";
import { disposeEngine } from "../contract/native.ts";
import { playScenario } from "../host/play.ts";
import type { Trace } from "../trace/events.ts";
import { TraceRecorder } from "../trace/recorder.ts";
import type { Scenario } from "../../scenarios/format.ts";
import { PROBES } from "./probes/index.ts";
import { standardRecorders } from "./recorders/index.ts";
import type { SourceRef } from "./sources.ts";
import type { EngineOrigin } from "./types.ts";

/** An engine as a run needs it: fresh instances, and how it was selected (REG-5 reads that). */
export interface PlayableEngine {
  /** The name it was selected by (config value, plugin directory, `--engine`). */
  selectedName: string;
  /** The `name` its plugin.yaml declares, or null without one. */
  manifestName: string | null;
  version: string | null;
  /** How it was found; null for an engine handed over as an object. */
  origin: EngineOrigin | null;
  /** A fresh instance; `home` is the run's sandbox, for an engine that takes it at construction (a Python engine's HERMES_HOME). */
  createFresh(options?: { home?: string }): Promise<ContextEngine>;
}

export interface PlaySourceOptions {
  /** The engine's private sandbox directory for this run (created if missing). */
  home: string;
  /** Where the host keeps its session store: outside the sandbox, so THR-4 watches only the engine's files. */
  storePath: string;
  /** The store is deleted after the run (a certification's): it skips syncs and settling its marks (SqliteHostStoreOptions.scratch). */
  scratchStore?: boolean;
  /** Play this scenario instead of building the catalogue's (a scenario file given to `ctxbench run`). */
  scenario?: Scenario;
  /** Host timeout of one compaction pass (default: the scenario's). */
  compactionTimeoutMs?: number;
  /** Aborted when the run is abandoned (its bound struck in this process): its engines are let go of at once. */
  signal?: AbortSignal;
}

export interface PlayedSource {
  trace: Trace;
  /** The scenario played, or null for a probe. */
  scenario: Scenario | null;
}

/**
 * Records one run on a fresh engine: a scenario through the reference host with the standard
 * recorders, or a probe driving the hooks directly. What certification players and `ctxbench run`
 * both do, so a replay records what the check read. Every engine made for the run is let go of
 * when it ends (a remote engine's process ends with it).
 */
export async function playSource(source: SourceRef, engine: PlayableEngine, options: PlaySourceOptions): Promise<PlayedSource> {
  const created: ContextEngine[] = [];
  const letGo = () => Promise.all(created.splice(0).map((instance) => disposeEngine(instance).catch(() => undefined)));
  const fresh = async () => {
    const instance = await engine.createFresh({ home: options.home });
    if (options.signal?.aborted === true) {
      await disposeEngine(instance).catch(() => undefined);
      throw new Error(`${source.kind}:${source.name} was abandoned before this engine was made`);
    }
    created.push(instance);
    return instance;
  };
  options.signal?.addEventListener("abort", () => void letGo(), { once: true });
  try {
    return await record(source, engine, options, fresh);
  } finally {
    await letGo();
  }
}

async function record(source: SourceRef, engine: PlayableEngine, options: PlaySourceOptions, fresh: () => Promise<ContextEngine>): Promise<PlayedSource> {
  const recorder = new TraceRecorder();
  const instance = await fresh();
  if (source.kind === "scenario") {
    // The pipeline ships every catalogue scenario built, so a player does not load the generators at all.
    const scenario = options.scenario ?? (await import("../../scenarios/catalogue/index.ts")).buildScenario(source.name, source.seed);
    const { trace } = await playScenario(scenario, instance, {
      home: options.home,
      storePath: options.storePath,
      ...(options.scratchStore === true ? { scratchStore: true } : {}),
      recorder,
      engineVersion: engine.version,
      observers: standardRecorders(),
      ...(options.compactionTimeoutMs !== undefined ? { compactionTimeoutMs: options.compactionTimeoutMs } : {}),
    });
    return { trace, scenario };
  }
  const probe = PROBES.get(source.name);
  if (!probe) throw new Error(`unknown probe "${source.name}"`);
  await probe.run(instance, {
    createEngine: fresh,
    selectedName: engine.selectedName,
    manifestName: engine.manifestName,
    origin: engine.origin,
    home: options.home,
    recorder,
    seed: source.seed,
  });
  return { trace: recorder.events, scenario: null };
}
