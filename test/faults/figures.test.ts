import { describe, expect, it } from "vitest";
import { figuresOf, markdownTable } from "./figures.ts";

describe("the fault suite's figures", () => {
  const results = [
    { fullName: "a", status: "passed", meta: { fault: { suite: "bad input: run", outcome: "exit 2, 1 line", seconds: 2.5 } } },
    { fullName: "b", status: "failed", meta: { fault: { suite: "bad input: run", outcome: "exit 3, 2 lines", seconds: 4.25 } } },
    { fullName: "c", status: "passed", meta: { fault: { suite: "store kills", outcome: "no row lost", kills: 10, rowsLost: 0 } } },
    { fullName: "d", status: "passed", meta: { fault: { suite: "store kills", outcome: "no row lost", kills: 1, rowsLost: 2 } } },
    { fullName: "e", status: "passed", meta: { faults: [{ suite: "hostile engines: run", outcome: "exit 2", seconds: 31, boundSeconds: 60 }, { suite: "hostile engines: run", outcome: "exit 1", seconds: 12, boundSeconds: 60 }] } },
    { fullName: "not a fault test", status: "passed", meta: {} },
  ];

  it("counts each suite's faults, passes, outcomes, slowest case, kills and lost rows from what the tests recorded", () => {
    expect(figuresOf(results)).toEqual([
      { suite: "bad input: run", faultsTried: 2, passed: 1, outcomes: { "exit 2, 1 line": 1, "exit 3, 2 lines": 1 }, slowestSeconds: 4.25, boundSeconds: null, kills: 0, rowsLost: 0 },
      { suite: "store kills", faultsTried: 2, passed: 2, outcomes: { "no row lost": 2 }, slowestSeconds: null, boundSeconds: null, kills: 11, rowsLost: 2 },
      { suite: "hostile engines: run", faultsTried: 2, passed: 2, outcomes: { "exit 2": 1, "exit 1": 1 }, slowestSeconds: 31, boundSeconds: 60, kills: 0, rowsLost: 0 },
    ]);
  });

  it("prints one row per suite and the totals", () => {
    const table = markdownTable(figuresOf(results)).trimEnd().split("\n");
    expect(table).toHaveLength(6);
    expect(table[2]).toBe("| bad input: run | 2 | 1 | exit 2, 1 line ×1; exit 3, 2 lines ×1 | 4.3 s | – | – |");
    expect(table[3]).toBe("| store kills | 2 | 2 | no row lost ×2 | – | 11 | 2 |");
    expect(table[4]).toBe("| hostile engines: run | 2 | 2 | exit 2 ×1; exit 1 ×1 | 31.0 s (60 s) | – | – |");
    expect(table[5]).toBe("| **all** | **6** | **5** | | | **11** | **2** |");
  });
});
