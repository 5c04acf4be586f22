import type { ContextEngine } from "../contract/context-engine.ts";
import type { Trace, TraceEvent } from "../trace/events.ts";
import type { TraceRecorder } from "../trace/recorder.ts";
import type { Scenario } from "../../scenarios/format.ts";

import { CHECK_OUTCOMES, type CheckLevel, type CheckOutcome } from "./check-result.ts";

/** RULES.md levels: only MUST decides a verdict. */
export type Level = CheckLevel;

/** Outcomes of one check (ARCHITECTURE decision 7). */
export type Outcome = CheckOutcome;
export const OUTCOMES: readonly Outcome[] = CHECK_OUTCOMES;

/** A trace event that shows why a check decided what it did, with a short note. */
export interface Evidence {
  /** Which run of the check the event comes from: `scenario:<name>` or `probe:<id>`. */
  source: string;
  /** The seed of that run; filled in by the evaluation from the event itself. */
  seed?: number;
  seq: number;
  note: string;
  event: TraceEvent;
}

/** What a pure evaluation decides. Runner-level outcomes (error, timeout) come from the run itself. */
export interface Evaluation {
  outcome: Exclude<Outcome, "error" | "timeout">;
  message: string;
  evidence: Evidence[];
  skipReason?: string;
}

/** One recorded run a check reads: a played scenario or a probe. */
export interface CheckRun {
  /** Scenario name, or `probe:<id>`. */
  source: string;
  seed: number;
  /** The played scenario (canaries, secrets), or null for a probe. */
  scenario: Scenario | null;
  trace: Trace;
}

/** How a player found the engine it plays (the `ready` message's account, for REG-5). */
export interface EngineOrigin {
  /** The directory path (`<root>/<name>/`), a plugin directory's or module's `register(ctx)` (general), or a bundled directory. */
  path: "directory" | "general" | "module";
  bundled: boolean;
  /** The plugin directory's name, or null for a plugin module file. */
  directoryName: string | null;
  /** `name` in its plugin.yaml, or null without one. */
  manifestName: string | null;
  language: string;
}

/**
 * What REG-5 judges the name against, derived from the origin. On the directory path (and for a
 * bundled engine) the directory's name is the selection key; a general plugin's register(ctx) is
 * selected by the registered engine's name, whatever its directory and plugin.yaml are called
 * (hermes-lcm: directory and manifest `hermes-lcm`, engine `lcm`).
 */
export interface SelectionFacts {
  via: "directory" | "general" | "bundled";
  /** The plugin directory's name, or null for a general plugin module outside one. */
  directoryName: string | null;
  /** `name` in its plugin.yaml, or null when it has none. */
  manifestName: string | null;
}

/** A small deterministic driver that calls the engine's hooks directly through the recorder. */
export interface ProbeContext {
  /** A fresh engine (for second instances the probe needs). */
  createEngine(): Promise<ContextEngine>;
  /** The name the engine was selected by (config value, plugin directory). */
  selectedName: string;
  /** The name its plugin.yaml declares, or null when it has none. */
  manifestName: string | null;
  /** How the engine was found, or null for an engine handed over as an object. */
  origin: EngineOrigin | null;
  /** The engine's private sandbox directory for this run. */
  home: string;
  recorder: TraceRecorder;
  seed: number;
}

export interface Probe {
  id: string;
  description: string;
  run(engine: ContextEngine, context: ProbeContext): Promise<void>;
}

/** A check is data: its rule, level and the runs it reads, plus a pure evaluation over them. */
export interface Check {
  /** Stable id starting with the rule id, e.g. `CMP-2/orphaned-result`; never renumbered. */
  id: string;
  rule: string;
  level: Level;
  title: string;
  /** Catalogue scenarios the check reads (played once per engine and seed, shared between checks). */
  scenarios: readonly string[];
  /** Probes the check reads (run once per engine and seed, shared between checks). */
  probes: readonly string[];
  evaluate(runs: readonly CheckRun[]): Evaluation;
}

/**
 * A check evaluated against one engine, before expectations are applied: what the runner
 * returns. Assembly turns it into the reported CheckResult (check-result.ts).
 */
export interface EvaluatedCheck {
  id: string;
  rule: string;
  level: Level;
  title: string;
  outcome: Outcome;
  message: string;
  evidence: Evidence[];
  durationMs: number;
  skipReason?: string;
  /** The runs the check read (labels), for the repro file. */
  sources: string[];
  /** The seeds the check read its runs at. */
  seeds: number[];
  /**
   * The runs that show the outcome: those its evidence comes from, or for a run that could not
   * be recorded, that run; every run the check read when nothing narrows it. Repros replay these.
   */
  shownBy: Array<{ source: string; seed: number }>;
}

/** The facts REG-5 judges, from how the engine was found. */
export function selectionFactsOf(origin: EngineOrigin): SelectionFacts {
  return { via: origin.bundled ? "bundled" : origin.path === "directory" ? "directory" : "general", directoryName: origin.directoryName, manifestName: origin.manifestName };
}
