import { describe, expect, it } from "vitest";
import { ExpectationsError } from "../conformance/expectations.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";
import { engineSource, scratchTreesPerTest } from "../plugins/test-support.ts";
import { MergeError } from "../../reports/merge.ts";
import { ResultError } from "../result/index.ts";
import { UnknownScenarioError } from "../../scenarios/catalogue/index.ts";
import { ImportError } from "../../scenarios/import/errors.ts";
import { ScenarioFormatError } from "../../scenarios/validate.ts";
import { CtxbenchError, NegativeVerdict, UsageError } from "../util/errors.ts";

describe("errors carry their exit code", () => {
  const scratch = scratchTreesPerTest();

  it("gives every error about bad input exit 2 and a negative verdict exit 1", () => {
    const inputErrors: CtxbenchError[] = [
      new UsageError("bad flag"),
      new ImportError("in.jsonl", "line 3", "not valid JSON"),
      new ScenarioFormatError("s.json", { path: "$.seed", message: "expected an integer" }),
      new UnknownScenarioError("nope"),
      new ExpectationsError("expectations.yaml: bad"),
      new ResultError({ path: "$", message: "not JSON" }, "r.json"),
      new MergeError("nothing to merge"),
    ];
    for (const error of inputErrors) {
      expect(error, error.name).toBeInstanceOf(CtxbenchError);
      expect(error.exitCode, error.name).toBe(2);
    }
    expect(new NegativeVerdict("not certified").exitCode).toBe(1);
    expect(inputErrors.map((error) => error.name)).toEqual([
      "UsageError", "ImportError", "ScenarioFormatError", "UnknownScenarioError", "ExpectationsError", "ResultError", "MergeError",
    ]);
  });

  it("names the source of a result problem and says why results cannot merge", () => {
    expect(new ResultError({ path: "$.runInfo", message: "missing" }, "r.json").message).toBe("r.json: $.runInfo: missing");
    expect(new MergeError("two versions").message).toBe("cannot merge: two versions");
    expect(new MergeError("two versions", ["a.json", "b.json"]).message).toBe("cannot merge a.json, b.json: two versions");
  });

  it("makes a malformed expectations file exit 2 from compare too, not an internal error", async () => {
    const base = new URL("../contract/context-engine.ts", import.meta.url).href;
    const plugins = await scratch({
      "plain/plugin.yaml": "name: plain\ndescription: d\nversion: 1.0.0\n",
      "plain/index.js": engineSource("plain", base),
      "plain/expectations.yaml": "- not\n- a mapping\n",
    });
    const io = memoryIo(plugins);
    const code = await runCli(["compare", "--plugins", plugins, "--engine", "plain", "--no-bench"], io);
    expect(io.err()).toMatch(/^ctxbench: .*expectations\.yaml: expected a mapping/m);
    expect(code).toBe(2);
  });
});
