import { describe, expect, it } from "vitest";
import { CHECKS } from "../conformance/checks/index.ts";
import { runCli } from "./main.ts";
import { memoryIo } from "./test-io.ts";
import type { CheckListing } from "./checks.ts";

async function run(args: string[]) {
  const io = memoryIo(process.cwd());
  const code = await runCli(["checks", ...args], io);
  return { code, out: io.out(), err: io.err() };
}

describe("ctxbench checks list", () => {
  it("--json lists every check with its level, title, rule statement and the scenarios and probes it reads", async () => {
    const { code, out } = await run(["list", "--json"]);
    expect(code).toBe(0);
    const listings = JSON.parse(out) as CheckListing[];
    expect(listings.map((l) => l.id)).toEqual(CHECKS.map((c) => c.id));
    const tcu3 = listings.find((l) => l.id === "TCU-3/repeated-tool-call-ids")!;
    expect(tcu3).toMatchObject({ rule: "TCU-3", level: "MUST" });
    expect(tcu3.scenarios).toContain("repeated-tool-call-ids");
    expect(tcu3.probes).toContain("compress");
    expect(tcu3.statement).toMatch(/Repeated provider tool-call ids/);
  });

  it("--rule keeps one rule's checks; the table names what each reads", async () => {
    const { code, out } = await run(["list", "--rule", "cmp-2"]);
    expect(code).toBe(0);
    for (const id of ["CMP-2/tool-call-shape", "CMP-2/orphaned-result", "CMP-2/split-batch"]) expect(out).toContain(id);
    expect(out).not.toContain("CMP-1/");
    expect(out).toMatch(/probes: compress/);
    expect(out).toMatch(/5 checks;/);
  });

  it("an unknown rule, and a rule that binds only the host, are one-line usage errors (exit 2)", async () => {
    const unknown = await run(["list", "--rule", "XYZ-9"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/unknown rule "XYZ-9"/);
    const host = await run(["list", "--rule", "SEL-2"]);
    expect(host.code).toBe(2);
    expect(host.err).toMatch(/binds the host/);
  });
});
