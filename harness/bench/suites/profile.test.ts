import { describe, expect, it } from "vitest";
import { CompressorEngine } from "../../../engines/compressor/index.ts";
import { LcmEngine } from "../../../engines/lcm/index.ts";
import { TruncateEngine } from "../../../engines/truncate/index.ts";
import type { Message } from "../../contract/types.ts";
import { profileEngines } from "./profile.ts";

/** Output depends on a counter: the same input never gives the same output twice. */
class RestlessEngine extends TruncateEngine {
  #passes = 0;
  override compress(messages: Message[]): Message[] {
    this.compression_count += 1;
    return [...super.compress(messages), { role: "assistant", content: `pass ${++this.#passes} at ${Math.random()}` }];
  }
}

class ThrowingEngine extends TruncateEngine {
  override compress(): Message[] {
    throw new Error("not today");
  }
}

describe("what each engine implements", () => {
  it("tells the bundled engines apart: selection, turn observation and tools for lcm, focus for lcm and the compressor, none of it for truncate", async () => {
    const warnings: string[] = [];
    const profiles = await profileEngines(
      [
        { name: "compressor", create: () => new CompressorEngine() },
        { name: "lcm", create: () => new LcmEngine() },
        { name: "truncate", create: () => new TruncateEngine() },
      ],
      1,
      warnings,
    );
    expect(profiles).toEqual([
      { engine: "compressor", selectContext: false, onTurnComplete: false, tools: [], focus: true, focusNote: null },
      { engine: "lcm", selectContext: true, onTurnComplete: true, tools: ["lcm_grep", "lcm_describe", "lcm_expand"], focus: true, focusNote: null },
      { engine: "truncate", selectContext: false, onTurnComplete: false, tools: [], focus: false, focusNote: null },
    ]);
    expect(warnings).toEqual([]);
  });

  it("leaves focus undecided, saying why, for an engine whose output changes run to run or whose compress throws", async () => {
    const [restless, throwing] = await profileEngines(
      [
        { name: "restless", create: () => new RestlessEngine() },
        { name: "throwing", create: () => new ThrowingEngine() },
      ],
      1,
      [],
    );
    expect(restless).toMatchObject({ focus: null, focusNote: expect.stringMatching(/different outputs/) });
    expect(throwing).toMatchObject({ focus: null, focusNote: "compress() threw on the profile transcript: not today" });
  });
});
