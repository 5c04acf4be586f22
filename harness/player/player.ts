import { mkdirSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { playSource } from "../conformance/play-source.ts";
import { sourceLabel } from "../conformance/sources.ts";
import { encodeTrace } from "../trace/interned.ts";
import type { Scenario } from "../../scenarios/format.ts";
import { scenarioTexts } from "../../scenarios/catalogue/text-tokens.ts";
import { rememberTokenCounts } from "../contract/tokens-exact.ts";
import { IntrinsicsWatch } from "./integrity.ts";
import { loadPlannedEngine, type PlayerEngine } from "./load.ts";
import { EngineLoadFailure } from "./loaders/index.ts";
import { PLAYER_PROTOCOL_VERSION, type Command, type IntegrityFinding, type PlayCommand, type PlayerMessage, type PlayerPlan } from "./protocol.ts";

/** Where a player's messages go: the authenticated frame channel, or the parent's own handler in-process. */
export type SendBody = (body: string) => Promise<void>;

/**
 * The player's work, whatever carries its messages: load the planned engine, record each run it
 * is given on a fresh engine, ship the trace in the interned form, run bench suites. One command
 * at a time, in the order they come. `watch` must have been created before any engine code ran.
 */
export class Player {
  #plan: PlayerPlan | null = null;
  #engine: PlayerEngine | null = null;
  readonly #send: SendBody;
  readonly #watch: IntrinsicsWatch;

  constructor(send: SendBody, watch: IntrinsicsWatch) {
    this.#send = send;
    this.#watch = watch;
  }

  /** Handles one command; resolves when its answer is sent. Returns false after `bye`. */
  async handle(command: Command): Promise<boolean> {
    switch (command.type) {
      case "hello":
        await this.#hello(command.plan);
        return true;
      case "play":
        await this.#play(command);
        return true;
      case "bench": {
        // Loaded on demand: a player that only plays never loads the suites (a bench player loaded them at start, before the engine).
        const { runBenchCommand } = await import("./bench.ts");
        await this.#message({ type: "bench-result", id: command.id, suite: command.suite, ...(await runBenchCommand(command.suite, command.options, this.#engine, this.#requirePlan().sandbox)) });
        return true;
      }
      case "bye":
        await this.#message({ type: "closing" });
        return false;
    }
  }

  async #hello(plan: PlayerPlan): Promise<void> {
    this.#plan = plan;
    mkdirSync(plan.sandbox, { recursive: true });
    if (plan.engine === null) {
      await this.#message({ type: "ready", protocol: PLAYER_PROTOCOL_VERSION, engine: null, integrity: [] });
      return;
    }
    try {
      this.#engine = await loadPlannedEngine(plan.engine, join(plan.sandbox, "loader"));
    } catch (error) {
      const message = error instanceof EngineLoadFailure ? error.message : `loading the engine failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
      await this.#message({ type: "load-failed", message: oneLine(message) });
      return;
    }
    await this.#message({ type: "ready", protocol: PLAYER_PROTOCOL_VERSION, engine: this.#engine.info, integrity: this.#watch.compare("load") });
  }

  async #play(command: PlayCommand): Promise<void> {
    const plan = this.#requirePlan();
    const { id, source } = command;
    const label = sourceLabel(source);
    await this.#message({ type: "source-start", id });
    const stats = { events: 0, messages: 0, bytes: 0, playMs: 0, shipMs: 0 };
    const end = (status: "recorded" | "error", message: string | null, integrity: IntegrityFinding[]) =>
      this.#message({ type: "source-end", id, status, message, stats, integrity });
    if (this.#engine === null) return end("error", `${label}: this player has no engine`, []);
    const home = command.home ?? mkdtempSync(join(plan.sandbox, `${label.replace(/[^a-z0-9-]/gi, "_")}-${source.seed}-`));
    mkdirSync(home, { recursive: true });
    // Counts that do not pair up with the scenario's texts are left out: the provider counts those texts itself.
    if (command.scenario !== undefined && command.textTokens !== undefined) rememberTokenCounts(scenarioTexts(command.scenario), command.textTokens);
    const started = performance.now();
    let played;
    try {
      played = await playSource(source, this.#engine.engine, {
        home,
        storePath: command.storePath ?? `${home}.sessions.db`,
        // A store this player places itself is deleted with the run's sandbox; one `ctxbench run` names is kept.
        scratchStore: command.storePath === undefined,
        ...(command.scenario !== undefined ? { scenario: command.scenario as unknown as Scenario } : {}),
        ...(command.compactionTimeoutMs !== undefined ? { compactionTimeoutMs: command.compactionTimeoutMs } : {}),
      });
    } catch (error) {
      stats.playMs = performance.now() - started;
      return end("error", oneLine(`${label} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`), this.#watch.compare(label));
    }
    stats.playMs = performance.now() - started;
    const integrity = this.#watch.compare(label);
    if (this.#watch.tainted) {
      const what = integrity.length > 0 ? integrity.map((finding) => finding.target).join(", ") : "intrinsics the harness relies on";
      return end("error", `${label}: not trusted: the engine replaced ${what}, so the harness recorded this run on the engine's replacements`, integrity);
    }
    const shipping = performance.now();
    for (const chunk of encodeTrace(played.trace, plan.limits.chunkBytes)) {
      const body = `{"events":[${chunk.events.join(",")}],"id":${id},"messages":[${chunk.messages.join(",")}],"type":"trace"}`;
      const bytes = Buffer.byteLength(body);
      if (bytes > plan.limits.maxFrameBytes - 128) {
        stats.shipMs = performance.now() - shipping;
        return end("error", `${label}: one trace event (${mib(bytes)}) is larger than the channel's frame limit (${mib(plan.limits.maxFrameBytes)})`, integrity);
      }
      if (stats.bytes + bytes > plan.limits.maxTraceBytes) {
        stats.shipMs = performance.now() - shipping;
        return end("error", `${label}: its trace is larger than the limit of ${mib(plan.limits.maxTraceBytes)} per run`, integrity);
      }
      stats.bytes += bytes;
      stats.events += chunk.events.length;
      stats.messages += chunk.messages.length;
      await this.#send(body);
    }
    stats.shipMs = performance.now() - shipping;
    await end("recorded", null, integrity);
  }

  #requirePlan(): PlayerPlan {
    if (this.#plan === null) throw new Error("a command came before hello");
    return this.#plan;
  }

  #message(message: PlayerMessage): Promise<void> {
    return this.#send(JSON.stringify(message));
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();
