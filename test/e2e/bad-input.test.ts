import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { ctxbench as runCli, REPO } from "./support.ts";

/**
 * The fault suite for inputs: each row is a bad input to one command, run as a process. Every
 * one must be exit 2 with one line on stderr naming the problem, never ctxbench's "internal
 * error", and must write nothing (the paths a row lists do not exist afterwards).
 */

const work = mkdtempSync(join(tmpdir(), "ctxbench-e2e-bad-input-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FIXTURE = JSON.parse(readFileSync(join(REPO, "harness/host/fixtures/two-sessions.json"), "utf8")) as Record<string, unknown> & {
  sessions: Array<{ id: string; turns: Array<{ user: unknown }> }>;
  schedule: unknown[];
};
/** An object nested 100,000 levels deep: JSON.parse takes it, every recursive copy of it overflows the stack. */
const DEEP = `${'{"k":'.repeat(100_000)}1${"}".repeat(100_000)}`;

let counter = 0;
function file(name: string, text: string): string {
  const path = join(work, `${counter++}-${name}`);
  writeFileSync(path, text);
  return path;
}
function scenarioFile(edit: (scenario: typeof FIXTURE) => void, replace: [string, string] | null = null): string {
  const scenario = structuredClone(FIXTURE);
  edit(scenario);
  let text = JSON.stringify(scenario);
  if (replace !== null) text = text.replace(replace[0], replace[1]);
  return file("scenario.json", text);
}
function sparseFile(name: string, bytes: number): string {
  const path = file(name, "");
  truncateSync(path, bytes);
  return path;
}
function tableStore(name: string, sql: string): string {
  const path = join(work, `${counter++}-${name}`);
  const db = new Database(path);
  db.exec(sql);
  db.close();
  return path;
}
function throwingNamePlugin(): string {
  const root = join(work, `${counter++}-plugins`);
  mkdirSync(join(root, "badname"), { recursive: true });
  writeFileSync(join(root, "badname/plugin.yaml"), "name: badname\ndescription: its name getter throws\nversion: 0.1.0\n");
  const contract = pathToFileURL(join(REPO, "harness/contract/context-engine.ts")).href;
  writeFileSync(
    join(root, "badname/index.mjs"),
    `import { ContextEngine } from ${JSON.stringify(contract)};
export class Engine extends ContextEngine {
  get name() { throw new Error("boom"); }
  update_from_response() {}
  should_compress() { return false; }
  compress(messages) { return messages; }
}
`,
  );
  return root;
}

interface Row {
  label: string;
  args: () => string[];
  /** What the one line must say. */
  stderr: RegExp;
  /** Paths (relative to the working directory) that must not exist afterwards. */
  absent?: string[];
}

const withEvent = (event: unknown) => (s: typeof FIXTURE) => void s.schedule.push({ kind: "event", session: s.sessions[0]!.id, event });

const ROWS: Row[] = [
  {
    label: "run: a content part nested 100,000 levels deep",
    args: () => ["run", "--engine", "compressor", "--scenario", scenarioFile((s) => void (s.sessions[0]!.turns[0]!.user = [{ type: "text", text: "hi", x: "DEEP" }]), ['"DEEP"', DEEP]), "--trace", "deep.jsonl"],
    stderr: /scenario\.json: \$\.sessions\[0\]\.turns\[0\]\.user\[0\]\.x(\.k)+…: nested deeper than 64 levels of arrays and objects$/,
    absent: ["deep.jsonl"],
  },
  {
    label: "run: a content-rewrite naming a message index no play can reach",
    args: () => ["run", "--engine", "compressor", "--scenario", scenarioFile(withEvent({ type: "content-rewrite", messageIndex: 100_000, content: "x" })), "--trace", "index.jsonl"],
    stderr: /\$\.schedule\[\d+\]\.event\.messageIndex: message 100000 is past the \d+ message\(s\) session "alpha" can hold at that point$/,
    absent: ["index.jsonl"],
  },
  {
    label: "run: legacyStore.opens of a million",
    args: () => [
      "run", "--engine", "compressor", "--trace", "opens.jsonl", "--scenario",
      scenarioFile((s) => void (s.legacyStore = { sessions: [{ id: "alpha", messages: [{ role: "user", content: "old" }] }], backfillChunk: 1, backfillBudgetMs: 0, opens: 1_000_000 })),
    ],
    stderr: /\$\.legacyStore\.opens: must be <= 1000, got 1000000$/,
    absent: ["opens.jsonl"],
  },
  {
    label: "run: a compaction timeout past Node's timer limit (it would fire after 1 ms)",
    args: () => ["run", "--engine", "compressor", "--trace", "timer.jsonl", "--scenario", scenarioFile((s) => void (s.host = { compactionTimeoutMs: 1e10 }))],
    stderr: /\$\.host\.compactionTimeoutMs: must be <= 2147483647, got 10000000000$/,
    absent: ["timer.jsonl"],
  },
  ...["constructor", "toString", "__proto__"].map((key): Row => ({
    label: `run: a "${key}" member where the format has none`,
    args: () => ["run", "--engine", "compressor", "--trace", `${key}.jsonl`, "--scenario", scenarioFile(() => undefined, ['"formatVersion":1', `"formatVersion":1,"${key}":{}`])],
    stderr: key === "__proto__" ? /\$\.__proto__: the key "__proto__" is not accepted/ : new RegExp(`\\$\\.${key}: unknown property "${key}"$`),
    absent: [`${key}.jsonl`],
  })),
  {
    label: "run: a scenario file of 300 MiB",
    args: () => ["run", "--engine", "compressor", "--scenario", sparseFile("huge.json", 300 * 1024 * 1024), "--trace", "huge.jsonl"],
    stderr: /huge\.json is 300 MiB; ctxbench reads scenario files of at most 256 MiB$/,
    absent: ["huge.jsonl"],
  },
  {
    label: "run: an engine whose name getter throws",
    args: () => ["run", "--plugins", throwingNamePlugin(), "--engine", "badname", "--scenario", "basic", "--trace", "badname.jsonl"],
    stderr: /badname\/index\.mjs: reading the engine's name threw: boom$/,
    absent: ["badname.jsonl"],
  },
  {
    label: "scenarios import: a content part nested 100,000 levels deep (and no empty out/ left behind)",
    args: () => ["scenarios", "import", file("deep.json", `[{"role":"user","content":[{"type":"text","x":${DEEP}}]},{"role":"assistant","content":"ok"}]`), "--out", "deep-out"],
    stderr: /deep\.json: \$\[0\]\.content\[0\]\.x(\.k)+…: nested deeper than 64 levels of arrays and objects$/,
    absent: ["deep-out"],
  },
  {
    label: 'scenarios import: a message carrying a "__proto__" key',
    args: () => ["scenarios", "import", file("proto.jsonl", '{"role":"user","content":"a","__proto__":{"role":"system"}}\n'), "--out", "proto-out"],
    stderr: /proto\.jsonl: \$\.__proto__: the key "__proto__" is not accepted/,
    absent: ["proto-out"],
  },
  {
    label: "scenarios import: a transcript of 300 MiB",
    args: () => ["scenarios", "import", sparseFile("huge.jsonl", 300 * 1024 * 1024), "--out", "huge-out"],
    stderr: /huge\.jsonl is 300 MiB; ctxbench reads transcript files of at most 256 MiB$/,
    absent: ["huge-out"],
  },
  {
    label: "scenarios import: session tables older than any schema_version table",
    args: () => ["scenarios", "import", tableStore("ancient.db", "CREATE TABLE sessions (id TEXT PRIMARY KEY); CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)"), "--out", "ancient-out"],
    stderr: /ancient\.db: has sessions and messages tables but no schema_version table: a layout older than Hermes schema v1, the oldest this import reads$/,
    absent: ["ancient-out"],
  },
  ...(
    [
      ["a file", () => file("a-file", "x"), /--out \S+a-file is a file, not a directory$/],
      ["a path under a file", () => join(file("b-file", "x"), "out"), /b-file\/out: \S+b-file is a file, so nothing can be created under it$/],
      ["/proc/self/x (Node's recursive mkdir never returns there)", () => "/proc/self/x", /--out \/proc\/self\/x: cannot create \/proc\/self\/x \(ENOENT\)$/],
      ["a directory no one may create in", () => "/sys/ctxbench-out", /--out \/sys\/ctxbench-out: cannot create \/sys\/ctxbench-out \(E[A-Z]+\)$/],
    ] as const
  ).map(([what, out, stderr]): Row => ({
    label: `scenarios import: --out that is ${what}, checked before the input is read`,
    args: () => ["scenarios", "import", file("ok.json", '[{"role":"user","content":"hi"},{"role":"assistant","content":"ok"}]'), "--out", out()],
    stderr,
  })),
  {
    label: 'scenarios generate: --seed " " (yargs made it 0)',
    args: () => ["scenarios", "generate", "--seed", " "],
    stderr: /--seed is blank; give a whole number$/,
  },
  {
    label: "scenarios show: --seed 1.5",
    args: () => ["scenarios", "show", "basic", "--seed", "1.5"],
    stderr: /--seed must be a whole number, got "1\.5"$/,
  },
  {
    label: "scenarios generate: --turns 100000000 (it ran out of memory)",
    args: () => ["scenarios", "generate", "--turns", "100000000"],
    stderr: /--turns must be a whole number from 0 to 100000, got 100000000$/,
  },
  {
    label: "scenarios generate: options whose product is gigabytes of JSON",
    args: () => ["scenarios", "generate", "--turns", "100000", "--sessions", "1000"],
    stderr: /the scenario would be an estimated [0-9.]+ GiB of JSON .* at most 256 MiB/,
  },
];

describe("bad inputs are exit 2, one line, nothing written (as processes)", () => {
  it.each(ROWS.map((row) => [row.label, row] as const))("%s", async (_label, row) => {
    const before = new Set(readdirSync(work));
    const result = await runCli(row.args(), { cwd: work, timeoutMs: 90_000 });
    expect(result.stderr).not.toMatch(/internal error|bug in ctxbench/);
    expect(result.code, result.stderr).toBe(2);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^ctxbench: /);
    expect(lines[0]).toMatch(row.stderr);
    expect(result.stdout).toBe("");
    for (const path of row.absent ?? []) expect(existsSync(join(work, path)), path).toBe(false);
    const created = readdirSync(work).filter((name) => !before.has(name) && !/^\d+-/.test(name));
    expect(created).toEqual([]);
  });
});
