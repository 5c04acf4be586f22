import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PlayerProcess } from "./client.ts";
import { DEFAULT_LIMITS } from "./protocol.ts";

const dir = mkdtempSync(join(tmpdir(), "ctxbench-client-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A stand-in player: reads the secret, then runs `script` with `frame(body)` writing an
 * authenticated frame and `raw(text)` writing anything on the channel. The parent's side is real.
 */
function player(name: string, script: string, limits = DEFAULT_LIMITS) {
  const entry = join(dir, `${name}.mjs`);
  writeFileSync(
    entry,
    `import { createHmac } from "node:crypto";
import { writeSync } from "node:fs";
let secret = null; let n = 0; let buffer = "";
const raw = (text) => writeSync(3, text);
const frame = (body) => { const signed = n++ + " " + JSON.stringify(body); raw(createHmac("sha256", secret).update(signed).digest("hex") + " " + signed + "\\n"); };
const commands = [];
let wake = null;
process.stdin.on("data", (chunk) => {
  const lines = (buffer + chunk).split("\\n"); buffer = lines.pop();
  for (const line of lines) { if (secret === null) secret = line; else commands.push(JSON.parse(line)); }
  wake?.();
});
const next = async () => { while (commands.length === 0) await new Promise((resolve) => (wake = resolve)); return commands.shift(); };
await next();
${script}
`,
  );
  return new PlayerProcess({ plan: { engine: null, sandbox: join(dir, name), limits }, cwd: dir, env: process.env, heapMb: 256, entry });
}

const ready = { type: "ready", protocol: 1, engine: null, integrity: [] };
const source = { source: { kind: "probe" as const, name: "usage", seed: 1 } };

describe("the parent's side of the player protocol", () => {
  it("reports a player that dies before ready, with its exit code and last words", async () => {
    const outcome = await player("dies", 'process.stderr.write("boom\\n"); process.exit(7);').ready(10_000);
    expect(outcome).toEqual({ ok: false, message: "the player exited (code 7); its last output: boom" });
  });

  it("bounds the load: a player that never says ready is stopped", async () => {
    const connection = player("silent", "await new Promise(() => setInterval(() => {}, 1000));");
    expect(await connection.ready(300)).toEqual({ ok: false, message: expect.stringMatching(/^the player did not finish loading the engine within 300 ms/) });
  });

  it("drops and counts frames that fail authentication, and goes on with the authentic ones", async () => {
    const connection = player("forges", `raw("result: pass\\n"); raw("0".repeat(64) + " 0 " + JSON.stringify(${JSON.stringify(ready)}) + "\\n"); frame(${JSON.stringify(ready)}); await next();`);
    expect(await connection.ready(10_000)).toMatchObject({ ok: true });
    expect(connection.forgedFrames).toBe(2);
    connection.kill();
  });

  it("ends a player whose frame line passes the cap, even one that never ends", async () => {
    const limits = { ...DEFAULT_LIMITS, maxFrameBytes: 64 * 1024 };
    const connection = player("floods", 'raw("x".repeat(1024 * 1024)); await new Promise(() => setInterval(() => {}, 1000));', limits);
    expect(await connection.ready(10_000)).toEqual({ ok: false, message: expect.stringMatching(/^the player broke the protocol \(a frame line of more than \d+ bytes, over the limit of 65536\)/) });
  });

  it("ends a player that sends an invalid message, or a trace that refers outside its table", async () => {
    const invalid = player("invalid", `frame({ type: "ready", protocol: 1, engine: null, integrity: [], verdict: "certified" });`);
    expect(await invalid.ready(10_000)).toEqual({ ok: false, message: expect.stringMatching(/broke the protocol \(ready message: \$\.verdict: unknown property "verdict"\)/) });
    const refs = player(
      "refs",
      `frame(${JSON.stringify(ready)}); const play = await next(); frame({ type: "source-start", id: play.id }); frame({ type: "trace", id: play.id, messages: [], events: [{ seq: 0, type: "request", session: "s", messages: [3] }] }); await next();`,
    );
    expect(await refs.ready(10_000)).toMatchObject({ ok: true });
    expect(await refs.play(source, 10_000, "late")).toEqual({ ok: false, outcome: "error", message: expect.stringMatching(/broke the protocol \(trace event 0: reference 3 is not in the message table \(0 entries\)\)/), integrity: [] });
  });

  it("times each run itself: a run past its bound is a timeout and the player is stopped", async () => {
    const connection = player("stalls", `frame(${JSON.stringify(ready)}); await next(); await new Promise(() => setInterval(() => {}, 1000));`);
    expect(await connection.ready(10_000)).toMatchObject({ ok: true });
    expect(await connection.play(source, 300, "probe:usage did not finish in time")).toEqual({ ok: false, outcome: "timeout", message: "probe:usage did not finish in time", integrity: [] });
    await connection.close();
  });

  it("rebuilds a recorded run from its chunks and checks the count against source-end", async () => {
    const connection = player(
      "records",
      `frame(${JSON.stringify(ready)}); const play = await next(); frame({ type: "source-start", id: play.id });
frame({ type: "trace", id: play.id, messages: [{ role: "user", content: "hi" }], events: [{ seq: 0, type: "request", session: "s", messages: [0, 0] }] });
frame({ type: "trace", id: play.id, messages: [], events: [{ seq: 1, type: "warning", session: null, message: "w", rule: null }] });
frame({ type: "source-end", id: play.id, status: "recorded", message: null, stats: { events: 2, messages: 1, bytes: 10, playMs: 1, shipMs: 1 }, integrity: [] });
await next(); frame({ type: "closing" });`,
    );
    expect(await connection.ready(10_000)).toMatchObject({ ok: true });
    const outcome = await connection.play(source, 10_000, "late");
    expect(outcome.ok && outcome.trace).toEqual([
      { seq: 0, type: "request", session: "s", messages: [{ role: "user", content: "hi" }, { role: "user", content: "hi" }] },
      { seq: 1, type: "warning", session: null, message: "w", rule: null },
    ]);
    await connection.close();
  });
});
