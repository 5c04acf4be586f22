import { describe, expect, it } from "vitest";
import { ContextEngine, ENGINE_BRAND, isContextEngine, overridesHook } from "./context-engine.ts";
import type { Message, Usage } from "./types.ts";

/** The smallest engine: only the abstract members, every optional one inherited. */
class MinimalEngine extends ContextEngine {
  readonly name = "minimal";
  update_from_response(usage: Usage): void {
    this.last_prompt_tokens = usage.prompt_tokens;
    this.last_completion_tokens = usage.completion_tokens;
    this.last_total_tokens = usage.total_tokens;
  }
  should_compress(prompt_tokens?: number): boolean {
    return (prompt_tokens ?? this.last_prompt_tokens) >= this.threshold_tokens;
  }
  compress(messages: Message[]): Message[] {
    this.compression_count += 1;
    return messages.slice(-1);
  }
}

class SelectingEngine extends MinimalEngine {
  override select_context(request_messages: Message[]): Message[] {
    return request_messages;
  }
}

const usage = (prompt: number): Usage => ({ prompt_tokens: prompt, completion_tokens: 10, total_tokens: prompt + 10 });

describe("the specification's own Testing examples", () => {
  it("an engine built with context_length 200000 is a ContextEngine with its name", () => {
    const engine = new MinimalEngine({ context_length: 200000 });
    expect(engine).toBeInstanceOf(ContextEngine);
    expect(isContextEngine(engine)).toBe(true);
    expect(engine.name).toBe("minimal");
  });
  it("compress returns a list whose every element has a role", async () => {
    const engine = new MinimalEngine({ context_length: 200000 });
    const result = await engine.compress([{ role: "user", content: "hello" }]);
    expect(Array.isArray(result)).toBe(true);
    expect(result.every((m) => "role" in m)).toBe(true);
  });
});

describe("constructor and attribute defaults", () => {
  it("starts with zeroed budget state and the documented defaults", () => {
    const engine = new MinimalEngine();
    expect({ ...engine }).toMatchObject({
      last_prompt_tokens: 0,
      last_completion_tokens: 0,
      last_total_tokens: 0,
      threshold_tokens: 0,
      context_length: 0,
      compression_count: 0,
      threshold_percent: 0.75,
      protect_first_n: 3,
      protect_last_n: 6,
    });
  });
  it("derives threshold_tokens from context_length and threshold_percent", () => {
    expect(new MinimalEngine({ context_length: 200000 }).threshold_tokens).toBe(150000);
    expect(new MinimalEngine({ context_length: 1001, threshold_percent: 0.5 }).threshold_tokens).toBe(500);
  });
});

describe("default methods", () => {
  const engine = new MinimalEngine({ context_length: 1000 });

  it("select_context returns null", () => {
    expect(engine.select_context([{ role: "user", content: "x" }])).toBeNull();
  });
  it("on_turn_complete, on_session_start and on_session_end return nothing", () => {
    expect(engine.on_turn_complete([], null)).toBeUndefined();
    expect(engine.on_session_start("s1")).toBeUndefined();
    expect(engine.on_session_end("s1", [])).toBeUndefined();
  });
  it("handle_tool_call answers an unknown-tool error as JSON", () => {
    expect(JSON.parse(engine.handle_tool_call("lcm_grep", {}) as string)).toEqual({ error: "Unknown context engine tool: lcm_grep" });
  });
  it("get_tool_schemas is empty", () => {
    expect(engine.get_tool_schemas()).toEqual([]);
  });
  it("should_compress_preflight is false, has_content_to_compress true", () => {
    expect(engine.should_compress_preflight([{ role: "user", content: "x" }])).toBe(false);
    expect(engine.has_content_to_compress([])).toBe(true);
  });
  it("should_compress_info reports no block", () => {
    expect(engine.should_compress_info()).toEqual({ blocked: false, reason: null });
  });
  it("prune_tool_results_only returns the same list and zero pruned", () => {
    const messages: Message[] = [{ role: "tool", tool_call_id: "a", content: "big" }];
    const [kept, pruned] = engine.prune_tool_results_only(messages, 10);
    expect(kept).toBe(messages);
    expect(pruned).toBe(0);
  });
});

describe("get_status", () => {
  it("reports the status fields", () => {
    const engine = new MinimalEngine({ context_length: 1000 });
    engine.update_from_response(usage(250));
    engine.compression_count = 2;
    expect(engine.get_status()).toEqual({
      name: "minimal",
      last_prompt_tokens: 250,
      threshold_tokens: 750,
      context_length: 1000,
      usage_percent: 25,
      compression_count: 2,
    });
  });
  it("clamps a -1 prompt count to 0 and usage to 100 percent", () => {
    const engine = new MinimalEngine({ context_length: 1000 });
    engine.last_prompt_tokens = -1;
    expect(engine.get_status()).toMatchObject({ last_prompt_tokens: 0, usage_percent: 0 });
    engine.last_prompt_tokens = 5000;
    expect(engine.get_status().usage_percent).toBe(100);
  });
  it("reports zero usage while the context length is unknown", () => {
    const engine = new MinimalEngine();
    engine.last_prompt_tokens = 10;
    expect(engine.get_status().usage_percent).toBe(0);
  });
});

describe("on_session_reset and update_model", () => {
  it("on_session_reset zeroes the counters but keeps the model budget", () => {
    const engine = new MinimalEngine({ context_length: 1000 });
    engine.update_from_response(usage(600));
    engine.compression_count = 3;
    engine.on_session_reset();
    expect(engine).toMatchObject({ last_prompt_tokens: 0, last_completion_tokens: 0, last_total_tokens: 0, compression_count: 0 });
    expect(engine).toMatchObject({ context_length: 1000, threshold_tokens: 750 });
  });
  it("update_model sets context_length and threshold = floor(ctx * percent)", () => {
    const engine = new MinimalEngine();
    engine.update_model({ model: "m", context_length: 131072 });
    expect(engine.context_length).toBe(131072);
    expect(engine.threshold_tokens).toBe(Math.floor(131072 * 0.75));
    engine.threshold_percent = 0.33;
    engine.update_model({ model: "m", context_length: 1001 });
    expect(engine.threshold_tokens).toBe(330);
  });
});

describe("clone_for_agent (REG-6 default)", () => {
  it("returns a different engine with the configuration and independent budget state", () => {
    const original = new MinimalEngine({ context_length: 1000, threshold_percent: 0.5 });
    original.update_from_response(usage(100));
    const clone = original.clone_for_agent();
    expect(clone).not.toBe(original);
    expect(isContextEngine(clone)).toBe(true);
    expect(clone).toBeInstanceOf(MinimalEngine);
    expect(clone.threshold_percent).toBe(0.5);
    expect(clone.last_prompt_tokens).toBe(100);
    clone.update_model({ model: "m", context_length: 4000 });
    clone.update_from_response(usage(3000));
    expect(original).toMatchObject({ context_length: 1000, threshold_tokens: 500, last_prompt_tokens: 100 });
    expect(clone).toMatchObject({ context_length: 4000, threshold_tokens: 2000, last_prompt_tokens: 3000 });
  });
  it("gives an engine with #private fields a working clone with its own private state", () => {
    class PrivateEngine extends MinimalEngine {
      #seen: string[] = [];
      remember(text: string): number {
        this.#seen.push(text);
        return this.#seen.length;
      }
    }
    const original = new PrivateEngine();
    original.remember("a");
    const clone = original.clone_for_agent() as PrivateEngine;
    expect(clone.remember("b")).toBe(1);
    expect(original.remember("c")).toBe(2);
  });
  it("falls back to a bare object of the class when the constructor needs arguments", () => {
    class NeedsArgs extends MinimalEngine {
      constructor(required: { path: string }) {
        super();
        if (!required) throw new Error("path required");
      }
    }
    const original = new NeedsArgs({ path: "x" });
    original.update_from_response(usage(7));
    const clone = original.clone_for_agent();
    expect(clone).toBeInstanceOf(NeedsArgs);
    expect(clone.last_prompt_tokens).toBe(7);
  });
  it("deep-copies plain object fields", () => {
    const original = new MinimalEngine() as MinimalEngine & { cache?: { hits: number } };
    original.cache = { hits: 1 };
    const clone = original.clone_for_agent() as typeof original;
    clone.cache!.hits = 9;
    expect(original.cache.hits).toBe(1);
  });
});

describe("isContextEngine", () => {
  it("rejects non-engines", () => {
    for (const value of [null, undefined, 1, "compressor", {}, { compress() {} }, ContextEngine, MinimalEngine]) {
      expect(isContextEngine(value)).toBe(false);
    }
  });
  it("the brand's value is the base class", () => {
    expect(new MinimalEngine()[ENGINE_BRAND]).toBe(ContextEngine);
  });
});

describe("two copies of the contract", () => {
  it("recognises an engine built on a second copy of the base class by its brand, not instanceof", async () => {
    const specifier = "./context-engine.ts?copy=2";
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof import("./context-engine.ts");
    expect(copy.ContextEngine).not.toBe(ContextEngine);
    class OtherCopyEngine extends copy.ContextEngine {
      readonly name = "other";
      update_from_response(): void {}
      should_compress(): boolean {
        return false;
      }
      compress(messages: Message[]): Message[] {
        return messages;
      }
    }
    const foreign = new OtherCopyEngine();
    expect(foreign instanceof ContextEngine).toBe(false);
    expect(isContextEngine(foreign)).toBe(true);
    expect(copy.isContextEngine(new MinimalEngine())).toBe(true);
    // The identity check compares against the copy this engine extends.
    expect(overridesHook(foreign as unknown as ContextEngine, "select_context")).toBe(false);
    expect(foreign[copy.ENGINE_BRAND]).toBe(copy.ContextEngine);
  });
});

describe("overridesHook (SEL-1)", () => {
  it("is false for an inherited default", () => {
    expect(overridesHook(new MinimalEngine(), "select_context")).toBe(false);
    expect(overridesHook(new MinimalEngine(), "on_turn_complete")).toBe(false);
  });
  it("is true for a subclass override", () => {
    expect(overridesHook(new SelectingEngine(), "select_context")).toBe(true);
    expect(overridesHook(new SelectingEngine(), "on_turn_complete")).toBe(false);
  });
  it("is true for a function set on the instance", () => {
    const engine = new MinimalEngine();
    engine.on_turn_complete = () => undefined;
    expect(overridesHook(engine, "on_turn_complete")).toBe(true);
  });
  it("compares against the base the engine extends, not another copy's", async () => {
    const specifier = "./context-engine.ts?copy=3";
    const copy = (await import(/* @vite-ignore */ specifier)) as typeof import("./context-engine.ts");
    // An engine of this copy that reuses the *other* copy's default is an override from its base's view.
    const engine = new MinimalEngine();
    engine.select_context = copy.ContextEngine.prototype.select_context;
    expect(overridesHook(engine, "select_context")).toBe(true);
  });
});
