import { describe, expect, it } from "vitest";
import type { Message, SelectContextOptions, ToolSchema } from "../contract/types.ts";
import type { CompactionEvent, RequestEvent, WarningEvent } from "../trace/events.ts";
import { buildScenario } from "../../scenarios/catalogue/index.ts";
import type { Scenario } from "../../scenarios/format.ts";
import { playScenario } from "./play.ts";
import { sandboxesPerTest } from "./test-support.ts";
import { MinimalEngine } from "../testkit/minimal-engine.ts";

const home = sandboxesPerTest();

/** A tail engine whose compress() output gets one broken summary message in front of the kept tail. */
class BrokenSummary extends MinimalEngine {
  constructor(private readonly summary: () => unknown) {
    super();
  }
  override compress(messages: Message[]): Message[] {
    const kept = super.compress(messages) as Message[];
    return [kept[0]!, this.summary() as Message, ...kept.slice(1)];
  }
}

const circular = () => {
  const content: Record<string, unknown> = { type: "text", text: "loop" };
  content["self"] = content;
  return { role: "user", content: [content] };
};

const brokenOutputs: Array<[string, () => unknown, RegExp]> = [
  ["object content", () => ({ role: "user", content: { text: "summary" } }), /element 1 \(role user\): content is an object; expected a string or a list of typed parts/],
  ["parts without type", () => ({ role: "user", content: [{ text: "summary" }] }), /element 1 \(role user\): content\[0\] has type missing/],
  ["empty tool_calls", () => ({ role: "assistant", content: "summary", tool_calls: [] }), /element 1 \(role assistant\): tool_calls is an empty list/],
  ["a BigInt", () => ({ role: "user", content: "summary", tokens: 10n }), /element 1: tokens: it holds a BigInt/],
  ["a cycle", circular, /element 1: content: it holds a circular reference/],
  ["a null element", () => null, /element 1 is null; expected a message object/],
  ["a numeric role", () => ({ role: 3, content: "summary" }), /element 1: role is number 3/],
];

async function play(engine: MinimalEngine, scenario: Scenario = buildScenario("parallel-tool-calls", 1)) {
  const dir = home();
  return (await playScenario(scenario, engine, { home: dir, storePath: `${dir}/sessions.db` })).trace;
}

/** parallel-tool-calls with every call of the first batch renamed to an engine tool. */
function withEngineToolCalls(name: string): Scenario {
  const scenario = buildScenario("parallel-tool-calls", 1);
  const step = scenario.sessions[0]!.turns.flatMap((turn) => turn.steps).find((candidate) => (candidate.toolCalls ?? []).length > 0)!;
  for (const call of step.toolCalls!) call.name = name;
  return scenario;
}

describe("engine output the host can neither store nor send is the engine's fault, never a crash", () => {
  it.each(brokenOutputs)("a compress() summary holding %s is refused with a warning naming the element, and the history is kept", async (_what, summary, named) => {
    const trace = await play(new BrokenSummary(summary));
    const passes = trace.filter((event): event is CompactionEvent => event.type === "compaction");
    expect(passes.length).toBeGreaterThan(0);
    expect(passes.every((pass) => pass.outcome === "refused-invalid")).toBe(true);
    expect(passes[0]!.error).toMatch(named);
    const warnings = trace.filter((event): event is WarningEvent => event.type === "warning" && event.message.startsWith("Compression refused"));
    expect(warnings.length).toBe(passes.length);
    expect(warnings[0]!.message).toMatch(named);
    expect(warnings[0]!.rule).toMatch(/^CMP-[12]$/);
    expect(trace.at(-1)?.type).toBe("run-end");
  });

  it("a refused output JSON can carry is still in the trace for the checks; one it cannot carry is not", async () => {
    const [objectContent] = (await play(new BrokenSummary(brokenOutputs[0]![1]))).filter((event): event is CompactionEvent => event.type === "compaction");
    expect(objectContent!.output?.[1]?.content).toEqual({ text: "summary" });
    const [cycle] = (await play(new BrokenSummary(circular))).filter((event): event is CompactionEvent => event.type === "compaction");
    expect(cycle!.output).toBeNull();
  });

  it("a selection the provider would refuse fails open, with a warning naming the element", async () => {
    class SelectsObjectContent extends MinimalEngine {
      override select_context(request: Message[], _options?: SelectContextOptions): Message[] {
        return [...request.slice(0, -1), { role: "user", content: { text: String(request.at(-1)?.content) } } as unknown as Message];
      }
    }
    const trace = await play(new SelectsObjectContent());
    const requests = trace.filter((event): event is RequestEvent => event.type === "request");
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((request) => request.selection === "fail-open-invalid")).toBe(true);
    const warning = trace.find((event): event is WarningEvent => event.type === "warning" && event.rule === "SEL-2");
    expect(warning?.message).toMatch(/returned messages a provider would refuse; using unmodified request messages: element \d+ \(role user\): content is an object/);
  });

  it("a selection holding a cycle fails open instead of crashing the request's trace copy", async () => {
    class SelectsCycle extends MinimalEngine {
      override select_context(request: Message[]): Message[] {
        return [...request, circular() as Message];
      }
    }
    const trace = await play(new SelectsCycle());
    expect(trace.filter((event): event is RequestEvent => event.type === "request").every((request) => request.selection === "fail-open-invalid")).toBe(true);
  });

  it("an engine tool that returns a value JSON cannot carry answers with an error result and a warning", async () => {
    class ToolReturnsBigInt extends MinimalEngine {
      override get_tool_schemas(): ToolSchema[] {
        return [{ name: "read_file", description: "shadowed by the host's own tool", parameters: { type: "object" } }, { name: "lcm_grep", description: "search", parameters: { type: "object" } }];
      }
      override handle_tool_call(): string {
        return { count: 1n } as unknown as string;
      }
    }
    const trace = await play(new ToolReturnsBigInt(), withEngineToolCalls("lcm_grep"));
    const answered = trace.filter((event) => event.type === "tool-call" && event.routedTo === "engine");
    expect(answered.length).toBeGreaterThan(0);
    expect(trace.some((event) => event.type === "warning" && event.rule === "TOOL-2" && event.message.includes("not JSON"))).toBe(true);
  });
});
