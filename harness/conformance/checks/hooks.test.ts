import { describe, expect, it } from "vitest";
import type { ContextEngine } from "../../contract/context-engine.ts";
import type { Message, SelectContextOptions, TurnCompleteInfo, Usage } from "../../contract/types.ts";
import { FixtureBaseEngine } from "../fixtures/index.ts";
import { runChecks, type EngineUnderTest } from "../runner.ts";
import { HOST_SCENARIOS } from "../test-support.ts";
import { selectChecks } from "./index.ts";

const engine = (create: () => ContextEngine): EngineUnderTest => ({ name: "fixture-base", version: "0", selectedName: "fixture-base", createFresh: async () => create() });
/** A check's scenario-side alone, on one scenario. */
const onScenario = (id: string, scenario: string) => selectChecks([id]).map((check) => ({ ...check, probes: [], scenarios: [scenario] }));

/** Trims long tool outputs for the provider by editing request_messages in place, as upstream's live list allows, and answers nothing. */
class TrimsRequestInPlace extends FixtureBaseEngine {
  override select_context(request_messages: Message[]): null {
    for (const message of request_messages) {
      if (message.role === "tool" && typeof message.content === "string" && message.content.length > 400) message.content = `${message.content.slice(0, 400)} [trimmed]`;
    }
    return null;
  }
}

class MarksIncoming extends FixtureBaseEngine {
  override select_context(request_messages: Message[], options?: SelectContextOptions): null {
    if (options?.incoming_message) options.incoming_message.content = `${String(options.incoming_message.content)} (seen)`;
    return request_messages.length > 0 ? null : null;
  }
}

/** Replaces the request only when a tool output is over 400 characters, and then drops those results but keeps their calls. */
class DropsLongResults extends FixtureBaseEngine {
  override select_context(request_messages: Message[]): Message[] | null {
    const long = (m: Message) => m.role === "tool" && typeof m.content === "string" && m.content.length > 400;
    return request_messages.some(long) ? request_messages.filter((m) => !long(m)) : null;
  }
}

class ScribblesOnTranscript extends FixtureBaseEngine {
  override on_turn_complete(messages: Message[], usage: Usage | null, info?: TurnCompleteInfo): void {
    super.on_turn_complete(messages, usage, info);
    messages.push({ role: "assistant", content: "(indexed)" });
  }
}

const outcomeOf = (results: Awaited<ReturnType<typeof runChecks>>, id: string) => results.find((result) => result.id === id)!;

describe("select_context is judged as the rules are written, on every selection", () => {
  it("an engine that edits request_messages in place and nothing else passes SEL-6, and the edited request is what SEL-9 judges", async () => {
    const results = await runChecks(engine(() => new TrimsRequestInPlace()), selectChecks(["SEL-6", "SEL-7", "SEL-9"]), { seed: 1 });
    expect(results.map((r) => [r.id, r.outcome])).toEqual([
      ["SEL-6/inputs-unmutated", "pass"],
      ["SEL-7/return-shape", "pass"],
      ["SEL-9/valid-selection", "pass"],
    ]);
    expect(outcomeOf(results, "SEL-6/inputs-unmutated").message).toMatch(/0 list answers, 0 replacing the request, [1-9]\d* in-place edits of request_messages/);
  });

  it("an engine that mutates incoming_message fails SEL-6, which names the argument", async () => {
    const [sel6] = await runChecks(engine(() => new MarksIncoming()), selectChecks(["SEL-6"]), { seed: 1 });
    expect(sel6!.outcome).toBe("fail");
    expect(sel6!.message).toContain("select_context mutated incoming_message");
  });

  it("a selection that only acts on tool outputs over 400 characters is reached by the probe's sizes and judged (SEL-9)", async () => {
    const results = await runChecks(engine(() => new DropsLongResults()), selectChecks(["SEL-9"]), { seed: 1 });
    expect(results[0]!.outcome).toBe("fail");
    expect(results[0]!.message).toMatch(/tool call .* has no result/);
  });

  it("host requests are judged too: a mutation of conversation_messages in a played scenario fails SEL-6", async () => {
    class MutatesConversation extends FixtureBaseEngine {
      override select_context(_request: Message[], options?: SelectContextOptions): null {
        options?.conversation_messages?.pop();
        return null;
      }
    }
    const [sel6] = await runChecks(engine(() => new MutatesConversation()), onScenario("SEL-6", "parallel-tool-calls"), { seed: 1, scenarios: HOST_SCENARIOS });
    expect(sel6!.outcome).toBe("fail");
    expect(sel6!.message).toMatch(/^request \(scenario:parallel-tool-calls, seed 1\): select_context mutated conversation_messages/);
  });

  it("on_turn_complete copies an engine changes in a played scenario fail OTC-4", async () => {
    const [otc4] = await runChecks(engine(() => new ScribblesOnTranscript()), onScenario("OTC-4", "parallel-tool-calls"), { seed: 1, scenarios: HOST_SCENARIOS });
    expect(otc4!.outcome).toBe("fail");
    expect(otc4!.message).toMatch(/^turn \(scenario:parallel-tool-calls, seed 1\): on_turn_complete modified the transcript it was shown/);
  });
});
