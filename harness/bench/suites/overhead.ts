import { pathToFileURL } from "node:url";
import { siblingModule } from "../../util/module-file.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ContextEngine, overridesHook } from "../../contract/context-engine.ts";
import { disposeEngine } from "../../contract/native.ts";
import type { Message } from "../../contract/types.ts";
import { assembleRequest, type AssembledRequest } from "../../host/assemble.ts";
import { ReferenceViews } from "../../host/reference-views.ts";
import { generateScenario, sessionMessages } from "../../../scenarios/index.ts";
import type { OverheadSuite, OverheadVariant } from "./overhead.suite.ts";
import { judgeGoal, type Goal } from "../goals.ts";
import { measureInterleaved, type InterleaveOptions, type Variant, type VariantMeasurement } from "../interleave.ts";
import { noiseOf, type RunNoise } from "../noise.ts";
import { noiseReason, ratioReason } from "../reliability.ts";
import { compareInterleaved, medianWithInterval, type Comparison } from "../stats.ts";
import type { EngineFactory } from "../engine-factory.ts";
import { uidFor } from "../../util/uid.ts";
import { MinimalEngine } from "../../testkit/minimal-engine.ts";

/** An engine that overrides nothing optional (the test kit's minimal one): the host must treat it exactly like no engine. */
const inheritingEngine = () => new MinimalEngine({ name: "inheriting", compacts: false });

/** Overrides select_context with a no-op: pays for the host's reference copies and the call, changes nothing. */
class SelectNullEngine extends MinimalEngine {
  constructor() {
    super({ name: "select-null", compacts: false });
  }
  override select_context(): null {
    return null;
  }
}

export type OverheadEngine = EngineFactory;

export interface OverheadBenchOptions {
  /** Messages in the measured request (default 500). */
  messages?: number;
  engines?: OverheadEngine[];
  measure?: InterleaveOptions;
  seed?: number;
  /** Where its temporary files go (default the system's temporary directory); a bench player gives its suite one it removes even if the player is killed. */
  scratchDir?: string;
}

/** Goals from the issue: the check itself, the inheriting engine against none, assembly against serialising. */
export const OVERHEAD_GOALS = {
  identityCheckNs: 5,
  inheritingRatio: 1.01,
  assemblyToStringify: 0.5,
  noopSelectRatio: 1.2,
} as const;

/** A realistic request: a generated coding session cut to `count` messages, carrying host identity fields. */
export function overheadTranscript(count: number, seed: number): Message[] {
  const scenario = generateScenario({ seed, turns: Math.ceil(count / 4) + 4, toolOutputBytes: 600 });
  const all = sessionMessages(scenario.sessions[0]!);
  const cut = all.slice(0, count);
  while (cut.length > 1 && cut[cut.length - 1]!.role !== "user") cut.pop();
  // Persisted, as the host's history is: a row's uid and timestamp on every message.
  return cut.map((message, index) => ({ ...message, message_uid: uidFor(`overhead:${index + 1}`), timestamp: 1_767_225_600 + index }));
}

function lastUserIndex(messages: readonly Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]!.role === "user") return index;
  return -1;
}

type IdentityCheck = typeof overridesHook;

/**
 * A private copy of the contract module's identity check. A host process runs one engine, so the
 * check's property loads see one class; measuring six engine classes through one shared function
 * would make those loads megamorphic and time an artefact of the benchmark instead. A module URL
 * with its own query string is a separate module instance with its own compiled functions.
 */
async function privateIdentityCheck(variant: number): Promise<IdentityCheck> {
  // The contract module with this module's own extension: .ts from the sources, .js compiled.
  const url = `${pathToFileURL(siblingModule(import.meta.url, "../../contract/context-engine")).href}?overhead-variant=${variant}`;
  return ((await import(url)) as { overridesHook: IdentityCheck }).overridesHook;
}

/** The selection stage exactly as the host runs it: the identity check, and for overriders the clones and the call. */
function selectionStage(check: IdentityCheck, engine: ContextEngine | null, wire: Message[], transcript: readonly Message[], incomingIndex: number, views: ReferenceViews): unknown {
  if (engine === null || !check(engine, "select_context")) return null;
  return engine.select_context(wire, {
    conversation_messages: views.conversation(transcript),
    incoming_message: incomingIndex >= 0 ? views.incoming(transcript[incomingIndex]!) : null,
    budget_tokens: engine.context_length || 0,
  });
}

/** One request's assembly as the host makes it, with the conversation's reference copies when given (the host always gives them). */
function assembleSync(transcript: readonly Message[], engine: ContextEngine | null, incomingIndex: number, views?: ReferenceViews): AssembledRequest {
  const result = assembleRequest(transcript, engine, { session: "bench", incomingIndex, views });
  if (result instanceof Promise) throw new Error(`${engine?.name ?? "no engine"}: select_context is asynchronous; the overhead suite times synchronous assembly only`);
  return result;
}

async function prepare(engine: ContextEngine, home: string): Promise<ContextEngine> {
  await engine.update_model({ model: "sim/bench", context_length: 200_000 });
  await engine.on_session_start("bench", { home, platform: "bench", model: "sim/bench", context_length: 200_000 });
  return engine;
}

/**
 * Per-request cost of the selection stage and of the whole request assembly, for no engine, an
 * inheriting engine, a no-op select_context override and each given engine, measured interleaved
 * in one process; with the JSON.stringify floor of the same request beside them.
 */
export async function runOverheadBench(options: OverheadBenchOptions = {}): Promise<OverheadSuite> {
  const started = performance.now();
  const count = options.messages ?? 500;
  const transcript = overheadTranscript(count, options.seed ?? 1);
  const incomingIndex = lastUserIndex(transcript);
  const wire = assembleSync(transcript, null, incomingIndex).messages;
  const home = mkdtempSync(join(options.scratchDir ?? tmpdir(), "ctxbench-overhead-"));
  const warnings: string[] = [];
  const made: ContextEngine[] = [];
  try {
    const contenders: Array<{ variant: string; engine: ContextEngine | null }> = [
      { variant: "no-engine", engine: null },
      { variant: "inheriting", engine: await prepare(inheritingEngine(), home) },
      { variant: "select-null", engine: await prepare(new SelectNullEngine(), home) },
    ];
    for (const entry of options.engines ?? []) {
      const engine = await prepare(await entry.create(), home);
      made.push(engine);
      try {
        assembleSync(transcript, engine, incomingIndex);
        contenders.push({ variant: `engine:${entry.name}`, engine });
      } catch (error) {
        warnings.push((error as Error).message);
      }
    }

    const plain = JSON.stringify(assembleSync(transcript, null, incomingIndex).messages);
    const inheriting = JSON.stringify(assembleSync(transcript, contenders[1]!.engine, incomingIndex).messages);
    const requestsByteIdentical = plain === inheriting;

    let sink = 0;
    const checks = await Promise.all(contenders.map((_, index) => privateIdentityCheck(index)));
    // Each contender is a conversation of its own, with its own reference copies, as in the host.
    const selection: Variant[] = contenders.map(({ variant, engine }, index) => {
      const views = new ReferenceViews();
      return {
        name: `selection/${variant}`,
        run(n) {
          const check = checks[index]!;
          for (let i = 0; i < n; i++) if (selectionStage(check, engine, wire, transcript, incomingIndex, views) !== null) sink++;
        },
      };
    });
    const assembly: Variant[] = contenders.map(({ variant, engine }) => {
      const views = new ReferenceViews();
      return {
        name: `assembly/${variant}`,
        run(n) {
          for (let i = 0; i < n; i++) sink += assembleSync(transcript, engine, incomingIndex, views).messages.length;
        },
      };
    });
    const stringify: Variant = {
      name: "stringify",
      run(n) {
        for (let i = 0; i < n; i++) sink += JSON.stringify(wire).length;
      },
    };

    const measureOptions = options.measure ?? {};
    // The identity check is timed first, beside its baseline alone, while the shared loop has
    // seen no other engine class; the other variants follow with a baseline of their own.
    const identityRun = await measureInterleaved(selection.slice(0, 2), measureOptions);
    const restRun = await measureInterleaved([selection[0]!, ...selection.slice(2)], measureOptions);
    const assemblyRun = await measureInterleaved([...assembly, stringify], measureOptions);
    warnings.push(...identityRun.warnings, ...restRun.warnings, ...assemblyRun.warnings);
    if (sink < 0) warnings.push("unreachable");

    const floor = assemblyRun.variants.find((v) => v.name === "stringify")!;
    // One noise level for the suite: the calibration loop of all three runs, round by round.
    const noise = noiseOf([identityRun, restRun, assemblyRun].flatMap((run) => run.calibration.perRound.map((samples) => medianWithInterval(samples).value)));
    const measuredRows = [
      ...identityRun.variants.map((measured) => ({ stage: "selection" as const, measured, base: identityRun.variants[0]! })),
      // Against the clean baseline: the second run's own no-engine loop has by then seen every engine class.
      ...restRun.variants.slice(1).map((measured) => ({ stage: "selection" as const, measured, base: identityRun.variants[0]! })),
      ...assemblyRun.variants.filter((v) => v.name !== "stringify").map((measured) => ({ stage: "assembly" as const, measured, base: assemblyRun.variants[0]! })),
    ];
    const rows: OverheadVariant[] = measuredRows.map(({ stage, measured, base }) => {
      const variant = measured.name.slice(stage.length + 1);
      const contender = contenders.find((c) => c.variant === variant)!;
      const comparison = variant === "no-engine" ? null : compareToBase(measured, base);
      return {
        variant,
        engine: variant.startsWith("engine:") ? (contender.engine?.name ?? null) : null,
        stage,
        medianNs: medianWithInterval(measured.samplesNs),
        madNs: measured.summary.mad,
        p99Ns: measured.summary.p99,
        samples: measured.summary.samples,
        ratioToNoEngine: comparison?.ratio ?? null,
        addedNs: comparison?.difference ?? null,
        ratioToStringify: stage === "assembly" ? measured.summary.median / floor.summary.median : null,
        unreliable: comparison === null ? noiseReason(noise) : ratioReason(comparison.ratio, noise, { addsWork: true }),
      };
    });

    const row = (stage: string, variant: string) => rows.find((r) => r.stage === stage && r.variant === variant)!;
    const goals = overheadGoals({
      identityCheck: comparisonOf(row("selection", "inheriting")),
      inheriting: comparisonOf(row("assembly", "inheriting")),
      noopSelect: comparisonOf(row("assembly", "select-null")),
      assemblyToStringify: row("assembly", "inheriting").ratioToStringify!,
      messages: transcript.length,
      noise,
    });
    if (!requestsByteIdentical) warnings.push("the requests built with no engine and with an inheriting engine differ (CACHE-1)");

    return {
      suite: "overhead",
      warnings,
      goals,
      noise,
      durationMs: performance.now() - started,
      messagesPerRequest: transcript.length,
      stringifyFloorNs: floor.summary.median,
      requestsByteIdentical,
      variants: rows,
    };
  } finally {
    await Promise.all(made.map((engine) => disposeEngine(engine)));
    rmSync(home, { recursive: true, force: true });
  }
}

function compareToBase(measured: VariantMeasurement, base: VariantMeasurement): Comparison {
  return compareInterleaved({ samples: measured.samplesNs, perRound: measured.perRound }, { samples: base.samplesNs, perRound: base.perRound });
}

const comparisonOf = (row: OverheadVariant): Comparison => ({ ratio: row.ratioToNoEngine!, difference: row.addedNs! });

export interface OverheadGoalInputs {
  /** The selection stage with an inheriting engine against no engine: the identity check's cost. */
  identityCheck: Comparison;
  /** Whole assembly with an inheriting engine against no engine. */
  inheriting: Comparison;
  /** Whole assembly with a no-op select_context override against no engine: the host's reference copies and the call. */
  noopSelect: Comparison;
  assemblyToStringify: number;
  messages: number;
  noise: RunNoise;
}

/**
 * The host's three goals, judged by their intervals: an inheriting engine's assembly is met at
 * ≤ 1.01× only if the whole interval is, and a ratio below 1 beyond its interval (a load that hit
 * the baseline) makes the goal noisy instead of met.
 */
export function overheadGoals(inputs: OverheadGoalInputs): Goal[] {
  const { identityCheck, inheriting, noopSelect, noise } = inputs;
  return [
    judgeGoal(
      {
        id: "identity-check",
        engine: null,
        description: "the identity check on an inheriting engine, per request (selection stage minus the no-engine stage, which pays the same loop and call)",
        limit: OVERHEAD_GOALS.identityCheckNs,
        unit: "ns",
      },
      identityCheck.difference,
      noiseReason(noise),
    ),
    judgeGoal(
      { id: "inheriting-vs-none", engine: null, description: "whole assembly with an inheriting engine ÷ with no engine", limit: OVERHEAD_GOALS.inheritingRatio, unit: "×" },
      inheriting.ratio,
      ratioReason(inheriting.ratio, noise, { addsWork: true }),
    ),
    judgeGoal(
      {
        id: "noop-select-vs-none",
        engine: null,
        description: "whole assembly with a no-op select_context override ÷ with no engine (the inheriting assembly equals no engine's): what the host's copies of conversation_messages and the call cost",
        limit: OVERHEAD_GOALS.noopSelectRatio,
        unit: "×",
      },
      noopSelect.ratio,
      ratioReason(noopSelect.ratio, noise, { addsWork: true }),
    ),
    judgeGoal(
      {
        id: "assembly-vs-stringify",
        engine: null,
        description: `whole assembly (inheriting engine) ÷ JSON.stringify of the ${inputs.messages}-message request`,
        limit: OVERHEAD_GOALS.assemblyToStringify,
        unit: "×",
      },
      inputs.assemblyToStringify,
      noiseReason(noise),
    ),
  ];
}
