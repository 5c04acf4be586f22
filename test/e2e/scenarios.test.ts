import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ctxbench as runCli, REPO } from "./support.ts";
import { SessionStore } from "../../harness/store/index.ts";
import { createSeededMinter } from "../../harness/store/uid.ts";
import { readScenarioFile, sessionMessages } from "../../scenarios/index.ts";

const PINS = JSON.parse(readFileSync(join(REPO, "scenarios/catalogue/pins.json"), "utf8")) as Record<string, string>;

const ctxbench = (args: string[]) => runCli(args, { timeoutMs: 90_000 });
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("ctxbench scenarios (as a process)", () => {
  it("gives byte-identical JSON for the same name and seed in separate processes, matching the pins", async () => {
    // Two processes; the pins were written by a third (scenarios/catalogue/pins.ts --write).
    const [a, b] = await Promise.all([ctxbench(["scenarios", "show", "merges"]), ctxbench(["scenarios", "show", "merges", "--seed", "1"])]);
    for (const r of [a, b]) expect(r.code, r.stderr).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(sha(a.stdout)).toBe(PINS["merges"]);
  });

  it("imports a store's sessions into scenario files that keep the recorded uids", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-e2e-import-"));
    const db = join(dir, "state.db");
    const store = SessionStore.open(db, { mintUid: createSeededMinter(3), now: () => 1_700_000_000 });
    const call = { id: "call_0", type: "function" as const, function: { name: "read_file", arguments: '{"path":"a.ts"}' } };
    store.createSession("first", { systemPrompt: "sys" });
    store.appendMessages("first", [
      { role: "user", content: "read a.ts" },
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: "call_0", content: "export const a = 1;" },
      { role: "assistant", content: "It exports a." },
    ]);
    store.createSession("second");
    store.appendMessages("second", [{ role: "user", content: "hello" }, { role: "assistant", content: "hi" }]);
    const restored = store.getMessages("first");
    store.close();

    const out = join(dir, "scenarios");
    const result = await ctxbench(["scenarios", "import", db, "--out", out]);
    expect(result.code, result.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(["imported-first.json", "imported-second.json"]);
    const scenario = readScenarioFile(join(out, "imported-first.json"));
    const replayed = sessionMessages(scenario.sessions[0]!).slice(1);
    expect(replayed.map((m) => m.message_uid)).toEqual(restored.map((m) => m.message_uid));
    expect(replayed[1]!._tool_call_uids).toEqual(restored[1]!._tool_call_uids);
    expect(replayed[2]!._tool_call_uid).toBe(restored[2]!._tool_call_uid);
  });

  it("exits 2 on a file that is not JSON, JSONL or SQLite, and writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ctxbench-e2e-bad-"));
    const input = join(dir, "notes.txt");
    writeFileSync(input, "just some notes\n");
    const result = await ctxbench(["scenarios", "import", input, "--out", join(dir, "out")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input}: line 1: not JSON, JSONL or a SQLite session store`);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});
