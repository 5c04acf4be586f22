import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CHECKS } from "../checks/index.ts";
import { FIXTURES } from "../fixtures/index.ts";
import { runChecks, type EngineUnderTest, type RunnerOptions } from "../runner.ts";
import { fixtureUnderTest, HOST_SCENARIOS } from "../test-support.ts";
import type { EvaluatedCheck } from "../types.ts";
import { loadEngine } from "../../plugins/load.ts";
import { loadedModuleOf } from "../../util/module-file.ts";
import { NODE_ADAPTER, NodeEngineFactory } from "./node-engines.ts";

/**
 * The engine protocol is faithful: a TypeScript engine certified through it (the Node adapter, a
 * RemoteEngine on the host side) gets exactly the outcomes it gets in-process.
 */

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
/**
 * The adapter and the fixtures as the package ships them when dist/ is a build of these very
 * sources: an adapter running the sources registers tsx and compiles the harness again in each of
 * the forty-odd processes (about 0.4 s of CPU apiece); else the sources.
 */
const ADAPTER = loadedModuleOf(NODE_ADAPTER);
const BY_CHECK = loadedModuleOf(fileURLToPath(new URL("../fixtures/by-check.ts", import.meta.url)));
const factories: NodeEngineFactory[] = [];
afterAll(() => Promise.all(factories.map((factory) => factory.dispose())));

function overProtocol(engine: EngineUnderTest, spec: ConstructorParameters<typeof NodeEngineFactory>[0]): EngineUnderTest {
  const factory = new NodeEngineFactory(spec, { args: [ADAPTER] });
  factories.push(factory);
  return { ...engine, createFresh: () => factory.createFresh() };
}

const view = (results: EvaluatedCheck[]) => results.map((result) => `${result.id}: ${result.outcome}`);

/**
 * The run bound is not what this file tests, and a remote engine is slower than an in-process one
 * by the round trips: on a machine shared with other work the default bound could strike the remote
 * run alone. The bound here is far beyond any run of these engines (none of them hangs).
 */
const GENEROUS_RUN_BOUND_MS = 180_000;
/** A comparison plays everything twice, and the scenario ones are long: the test's own limit is above both runs' bounds' worth of slack. */
const COMPARISON_TEST_MS = 400_000;

async function compare(engine: EngineUnderTest, remote: EngineUnderTest, checks: typeof CHECKS, options: Pick<RunnerOptions, "scenarios">) {
  const inProcess = await runChecks(engine, checks, { seed: 1, timeoutMs: GENEROUS_RUN_BOUND_MS, ...options });
  const remoteResults = await runChecks(remote, checks, { seed: 1, timeoutMs: GENEROUS_RUN_BOUND_MS, ...options });
  expect(view(remoteResults)).toEqual(view(inProcess));
  return inProcess;
}

/**
 * Fixtures whose checks read host scenarios through paths of their own (timeouts, interleaved
 * sessions, special inputs): played with the one scenario that has the path (the checks read
 * every scenario in a certification; one is enough to compare the two ways of running).
 */
const WITH_SCENARIOS = new Map([
  ["THR-4/nothing-published-after-timeout", "compression-timeout"],
  ["THR-2/session-isolation", "concurrent-sessions"],
  ["CMP-2/split-batch", "parallel-tool-calls"],
  ["UID-4/content-rewrite", "content-rewrite"],
  ["CMP-9/preflight-without-uid", "preflight"],
  ["TCU-3/repeated-tool-call-ids", "repeated-tool-call-ids"],
]);

// Probes only: harness/pipeline/faithfulness.test.ts plays compressor and lcm with every scenario
// through the protocol on the path certify takes; a second scenario play here would repeat it.
describe("the protocol is faithful: bundled engines", () => {
  it.each(["compressor", "truncate", "lcm"])("%s: the same outcome for every check, in-process and through the Node adapter", async (name) => {
    const loaded = await loadEngine({ name, cwd: REPO, strict: true });
    const engine: EngineUnderTest = { name: loaded.name, version: loaded.version, selectedName: loaded.selected, createFresh: loaded.createFresh };
    const results = await compare(engine, overProtocol(engine, { entry: `${loaded.directory}/index.ts`, selection: name }), CHECKS, {});
    expect(results.filter((result) => result.outcome === "fail")).toEqual([]);
  }, COMPARISON_TEST_MS);
});

describe("the protocol is faithful: every fixture is caught the same way", () => {
  it.each(FIXTURES.map((fixture) => [fixture.check, fixture] as const))("%s", async (id, fixture) => {
    const rule = CHECKS.find((check) => check.id === id)!.rule;
    const engine = fixtureUnderTest(fixture);
    const scenario = WITH_SCENARIOS.get(id);
    const checks = CHECKS.filter((check) => check.rule === rule).map((check) => ({ ...check, scenarios: scenario !== undefined && check.scenarios.includes(scenario) ? [scenario] : [] }));
    const results = await compare(engine, overProtocol(engine, { entry: BY_CHECK, selection: id, exportName: "fixtureEngine" }), checks, scenario !== undefined ? { scenarios: HOST_SCENARIOS } : {});
    expect(results.find((result) => result.id === id)?.outcome).not.toBe("pass");
  }, COMPARISON_TEST_MS);
});

describe("ABC-1 over the protocol names what a class-less engine is", () => {
  it("a duck-typed TypeScript object is reported as a plain object, not as a class called Object", async () => {
    const id = "ABC-1/base-class-and-members";
    const engine = fixtureUnderTest(FIXTURES.find((fixture) => fixture.check === id)!);
    const remote = overProtocol(engine, { entry: BY_CHECK, selection: id, exportName: "fixtureEngine" });
    const [result] = await runChecks(remote, CHECKS.filter((check) => check.id === id), { seed: 1, timeoutMs: GENEROUS_RUN_BOUND_MS });
    expect(result?.outcome).toBe("fail");
    expect(result?.message).toBe(
      "the typescript engine is a plain object and does not subclass the contract's ContextEngine (its prototype chain: (plain object) → Object)",
    );
  });
});
