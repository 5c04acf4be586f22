import { ContextEngine } from "../../harness/contract/context-engine.ts";
import type {
  CompressOptions,
  EngineStatus,
  Message,
  SelectContextOptions,
  SessionStartInfo,
  ToolCallOptions,
  ToolSchema,
  TurnCompleteInfo,
  Usage,
} from "../../harness/contract/types.ts";
import { ExtractiveSummarizer } from "../shared/extractive-summarizer.ts";
import type { Summarizer } from "../shared/summarizer.ts";
import { carriedNodeIds, isCarrier } from "./carrier.ts";
import { planCompaction } from "./compaction.ts";
import { selectWithRetrieval } from "./retrieval.ts";
import { SessionRegistry, UNSCOPED, type ResolvedSession, type SessionHints } from "./sessions.ts";
import { resolveSettings, type LcmSettings, type ResolvedLcmSettings } from "./settings.ts";
import type { LcmStore, StagedPass } from "./store.ts";
import { LCM_TOOL_SCHEMAS, runLcmTool } from "./tools.ts";

export type { LcmSettings } from "./settings.ts";

/** A pass waiting for the host's commit notification. */
interface PendingPass {
  pass: StagedPass;
}

/**
 * Lossless context management: every message is kept in SQLite, compaction replaces old turns
 * with a DAG of summaries that name their nodes, and the tools and select_context bring the
 * originals back. State is per session (THR-2); a pass publishes only on commit (THR-4).
 */
export class LcmEngine extends ContextEngine {
  readonly name = "lcm";
  readonly #input: LcmSettings;
  readonly #settings: ResolvedLcmSettings;
  readonly #summarizer: Summarizer;
  #registry: SessionRegistry;
  /** Keyed by session id (UNSCOPED for a pass no hint tied to a session). */
  readonly #pending = new Map<string, PendingPass>();

  constructor(settings: LcmSettings = {}) {
    super({
      ...(settings.context_length !== undefined ? { context_length: settings.context_length } : {}),
      ...(settings.threshold_percent !== undefined ? { threshold_percent: settings.threshold_percent } : {}),
    });
    this.#input = settings;
    this.#settings = resolveSettings(settings);
    this.#summarizer = settings.summarizer ?? new ExtractiveSummarizer();
    this.#registry = new SessionRegistry(settings.dbPath ?? null);
  }

  update_from_response(usage: Usage): void {
    this.last_prompt_tokens = count(usage?.prompt_tokens);
    this.last_completion_tokens = count(usage?.completion_tokens);
    this.last_total_tokens = count(usage?.total_tokens);
  }

  should_compress(prompt_tokens?: number): boolean {
    const tokens = typeof prompt_tokens === "number" && Number.isFinite(prompt_tokens) ? prompt_tokens : this.last_prompt_tokens;
    return this.threshold_tokens > 0 && tokens >= this.threshold_tokens;
  }

  async compress(messages: Message[], _current_tokens?: number | null, focus_topic?: string | null, options?: CompressOptions): Promise<Message[]> {
    const signal = options?.signal;
    const session = this.#registry.resolve({ sessionId: hint(options, "session_id"), messages });
    const key = session?.id ?? UNSCOPED;
    const plan = await planCompaction({
      messages,
      thresholdTokens: this.threshold_tokens,
      scopeKey: key,
      summarizer: this.#summarizer,
      settings: this.#settings,
      focusTopic: typeof focus_topic === "string" && focus_topic.trim() !== "" ? focus_topic : null,
      ...(signal ? { signal } : {}),
    });
    this.compression_count += 1;
    if (plan.pass === null || signal?.aborted) return plan.output;
    this.#stage(key, plan.pass, plan.carried.map((n) => n.id), signal);
    return plan.output;
  }

  override select_context(request_messages: Message[], options?: SelectContextOptions): Message[] | null {
    if (carriedNodeIds(request_messages).length === 0) return null;
    const session = this.#resolve({ messages: [...(options?.conversation_messages ?? []), ...request_messages] });
    if (session === null) return null;
    return selectWithRetrieval({
      request: request_messages,
      incoming: options?.incoming_message ?? null,
      store: session.store,
      scope: this.#registry.scope(session),
      budgetTokens: options?.budget_tokens ?? this.context_length,
      settings: this.#settings,
    });
  }

  override on_turn_complete(messages: Message[], _usage: Usage | null, info?: TurnCompleteInfo): void {
    if (!Array.isArray(messages)) return;
    const session = this.#resolve({ sessionId: info?.session_id, turnId: info?.turn_id, messages });
    const target = session ?? { id: UNSCOPED, store: this.#registry.memory() };
    target.store.ingest(target.id, messages.filter((m) => !isCarrier(m)));
  }

  override on_session_start(session_id: string, info?: SessionStartInfo): void {
    const parent = typeof info?.old_session_id === "string" && info.old_session_id !== session_id ? info.old_session_id : null;
    const home = typeof info?.home === "string" && info.home !== "" ? info.home : null;
    const store = this.#registry.start(session_id, home, parent);
    if (info?.boundary_reason === "compression") this.#publish(parent ?? session_id, session_id, store);
  }

  override on_session_end(session_id: string, messages: Message[]): void {
    const store = this.#registry.storeOf(session_id);
    if (store && Array.isArray(messages)) store.ingest(session_id, messages.filter((m) => !isCarrier(m)));
  }

  override get_tool_schemas(): ToolSchema[] {
    return LCM_TOOL_SCHEMAS.map((schema) => structuredClone(schema));
  }

  override handle_tool_call(name: string, args: Record<string, unknown>, options?: ToolCallOptions): string {
    try {
      const session = this.#resolve({ sessionId: options?.session_id, messages: Array.isArray(options?.messages) ? options.messages : null });
      return runLcmTool(name, args, session ? { store: session.store, sessions: this.#registry.scope(session) } : null);
    } catch (error) {
      return JSON.stringify({ error: `lcm tool ${String(name)} failed: ${error instanceof Error ? error.message : String(error)}` });
    }
  }

  override get_status(): EngineStatus {
    const store = this.#registry.describe();
    return { ...super.get_status(), lcm_store: store.path, lcm_store_persistent: store.persistent, lcm_store_note: store.note };
  }

  override clone_for_agent(): LcmEngine {
    const clone = new LcmEngine(this.#input);
    clone.#registry = this.#registry.clone();
    clone.threshold_percent = this.threshold_percent;
    clone.context_length = this.context_length;
    clone.threshold_tokens = this.threshold_tokens;
    clone.protect_first_n = this.protect_first_n;
    clone.protect_last_n = this.protect_last_n;
    return clone;
  }

  /** Close every connection; staged passes are dropped. */
  close(): void {
    this.#pending.clear();
    this.#registry.close();
  }

  #resolve(hints: SessionHints): ResolvedSession | null {
    return this.#registry.resolve(hints);
  }

  /**
   * Keep a pass in memory until the host commits it. When the carried nodes include ones a still
   * pending pass made, that pass was committed (its carrier is in the host's history), so the new
   * pass takes it along.
   */
  #stage(key: string, pass: StagedPass, carried: readonly string[], signal: AbortSignal | undefined): void {
    const previous = this.#pending.get(key);
    let merged = pass;
    if (previous && previous.pass.nodes.some((node) => carried.includes(node.id) || pass.nodes.some((n) => n.children.includes(node.id)))) {
      const offset = previous.pass.messages.length;
      merged = {
        messages: [...previous.pass.messages, ...pass.messages],
        nodes: [...previous.pass.nodes, ...pass.nodes.map((node) => ({ ...node, messageIndices: node.messageIndices.map((i) => i + offset) }))],
      };
    }
    const entry: PendingPass = { pass: merged };
    this.#pending.set(key, entry);
    signal?.addEventListener(
      "abort",
      () => {
        if (this.#pending.get(key) === entry) this.#pending.delete(key);
      },
      { once: true },
    );
  }

  /**
   * The host committed a pass of `owner` (the session whose history was compacted; `session` is
   * the same id in place, the child on rotation): write it, as that session's (THR-4's only write
   * point for compaction). The pass may have been staged under an ancestor the messages pointed to.
   */
  #publish(owner: string, session: string, store: LcmStore): void {
    const target = this.#registry.storeOf(owner) ?? store;
    const key = [owner, session, ...target.lineage(owner), UNSCOPED].find((candidate) => this.#pending.has(candidate));
    const entry = key === undefined ? undefined : this.#pending.get(key);
    if (key === undefined || !entry) return;
    this.#pending.delete(key);
    if (target.open) target.publish(owner, entry.pass);
  }
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

function hint(options: object | undefined, key: string): unknown {
  return options ? (options as Record<string, unknown>)[key] : undefined;
}

/** Directory-plugin entry point (REG-3). */
export function register(ctx: { register_context_engine(engine: ContextEngine): void }): void {
  ctx.register_context_engine(new LcmEngine());
}

export default LcmEngine;
