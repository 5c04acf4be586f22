import { mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { CHECKS } from "../conformance/checks/index.ts";
import { collectRunInfo } from "../result/index.ts";
import { certificationOf, checkSetDigest, RESULT_SCHEMA_VERSION, type CheckResult, type ResultJson } from "../result/index.ts";
import { engineSource } from "../plugins/test-support.ts";

/**
 * The fault suite for inputs: each row is a bad input to one command. Every one must be exit 2
 * with one line on stderr naming the problem, never ctxbench's "internal error", and must write
 * nothing (the paths a row lists do not exist afterwards). bad-input.test.ts beside this runs
 * every row through runCli in-process; test/e2e/bad-input.test.ts runs one row per error class
 * as a process.
 */
export interface BadInputRow {
  label: string;
  args: () => string[];
  /** What the one line must say. */
  stderr: RegExp;
  /** Paths (relative to the working directory) that must not exist afterwards. */
  absent?: string[];
}

export function badInputRows(work: string, contract: string): BadInputRow[] {
  const FIXTURE = JSON.parse(readFileSync(new URL("../host/fixtures/two-sessions.json", import.meta.url), "utf8")) as Record<string, unknown> & {
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


  /** A plugin root holding one plain engine ("plain") with `expectations.yaml` beside it holding `text`. */
  function pluginWithExpectations(text: string): string {
    const root = join(work, `${counter++}-plugins`);
    mkdirSync(join(root, "plain"), { recursive: true });
    writeFileSync(join(root, "plain/plugin.yaml"), "name: plain\ndescription: a plain engine\nversion: 0.1.0\n");
    writeFileSync(join(root, "plain/index.mjs"), engineSource("plain", contract));
    writeFileSync(join(root, "plain/expectations.yaml"), text);
    return root;
  }

  /** Malformed expectations files, each with the line it must give. */
  const BAD_EXPECTATIONS: ReadonlyArray<readonly [string, () => string, RegExp]> = [
    ["not YAML", () => file("syntax.yaml", "{{{"), /syntax\.yaml: Flow map in block collection must be sufficiently indented/],
    ["a list, not a mapping", () => file("list.yaml", "- not\n- a mapping\n"), /list\.yaml: expected a mapping of check id to \{expected, reason\}$/],
    ["an expected outcome that is none", () => file("outcome.yaml", "ABC-2/usage-echo: {expected: green, reason: x}\n"), /outcome\.yaml: "ABC-2\/usage-echo"\.expected must be one of pass, fail, error, timeout, skipped, indeterminate$/],
    ["an entry without a reason", () => file("reason.yaml", "ABC-2/usage-echo: {expected: fail}\n"), /reason\.yaml: "ABC-2\/usage-echo" needs a reason$/],
    ["YAML nested 100,000 levels deep", () => file("deep.yaml", `a: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`), /deep\.yaml: Maximum call stack size exceeded/],
    ["a YAML alias bomb", () => file("bomb.yaml", ["a: &a [x, x, x, x, x, x, x, x, x, x]", ...Array.from({ length: 29 }, (_, i) => `b${i + 1}: &b${i + 1} [${Array(10).fill(i === 0 ? "*a" : `*b${i}`).join(", ")}]`)].join("\n")), /bomb\.yaml: Excessive alias count indicates a resource exhaustion attack$/],
    ["a file of 300 MiB", () => sparseFile("huge.yaml", 300 * 1024 * 1024), /huge\.yaml is 300 MiB; ctxbench reads expectations files of at most 4\.0 MiB$/],
    ["a directory", () => { const dir = join(work, `${counter++}-expectations-dir`); mkdirSync(dir); return dir; }, /expectations-dir: cannot read \(EISDIR\)$/],
  ];


  /**
   * One shard of a certification of truncate by this build: every catalogue check of the shard,
   * passed, as certify would report it. `edit` changes the shard as a hand (or a tamperer) would.
   */
  function shardFile(index: 0 | 1, edit: (result: ResultJson, checks: CheckResult[]) => void = () => undefined, replace: [string, string] | null = null): string {
    const checks: CheckResult[] = CHECKS.filter((_, position) => position % 2 === index).map((check) => ({
      id: check.id,
      rule: check.rule,
      title: check.title,
      level: check.level,
      outcome: "pass",
      expected: null,
      unexpected: false,
      message: "ok",
      evidence: { events: [] },
      durationMs: 1,
    }));
    const engine = { name: "truncate", version: "0.1.0" };
    const result: ResultJson = {
      schemaVersion: RESULT_SCHEMA_VERSION,
      runInfo: collectRunInfo({ seed: 1, command: `ctxbench certify --engine truncate --shard ${index + 1}/2`, engines: [engine] }),
      certifications: [],
      benchmarks: [],
    };
    edit(result, checks);
    result.certifications = [certificationOf(engine, checks, { shard: { index: index + 1, count: 2 }, seeds: [1], checkSetDigest: checkSetDigest(CHECKS) })];
    const text = JSON.stringify(result);
    return file(`shard-${index + 1}.json`, replace === null ? text : text.replace(replace[0], replace[1]));
  }
  const firstFailing = (checks: CheckResult[]): CheckResult => {
    const check = checks.find((entry) => entry.level === "MUST")!;
    check.outcome = "fail";
    check.message = "tool result call_7 kept without its call";
    return check;
  };


  const withEvent = (event: unknown) => (s: typeof FIXTURE) => void s.schedule.push({ kind: "event", session: s.sessions[0]!.id, event });

  const rows: BadInputRow[] = [
    {
      label: "report: a blank result file argument (it read the working directory: EISDIR)",
      args: () => ["report", ""],
      stderr: /a result file argument is blank; give a path to a result\.json$/,
    },
    {
      label: "merge: a blank result file argument",
      args: () => ["merge", "", "", "--out", "never-merged"],
      stderr: /a result file argument is blank; give a path to a result\.json$/,
      absent: ["never-merged"],
    },
    ...(
      [
        ["certify", ["certify", "--engine", "truncate", "--checks", "ABC-2"]],
        ["compare", ["compare", "--engine", "truncate", "--no-bench", "--checks", "ABC-2"]],
        ["bench", ["bench", "--engine", "truncate", "--suite", "throughput", "--quick"]],
        ["run", ["run", "--engine", "truncate", "--scenario", "basic", "--trace", "never.jsonl"]],
      ] as const
    ).map(([command, args]): BadInputRow => ({
      label: `${command}: --python naming no interpreter, for a TypeScript engine too (it was silently ignored)`,
      args: () => [...args, "--python", "/nonexistent/python3"],
      stderr: /--python \/nonexistent\/python3: no executable file there$/,
      absent: ["never.jsonl"],
    })),
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
    ...["constructor", "toString", "__proto__"].map((key): BadInputRow => ({
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
    ).map(([what, out, stderr]): BadInputRow => ({
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

    ...(
      [
        ["a file", () => file("a-file", "x"), /--dir \S+a-file is a file, not a directory$/],
        ["a path under a file", () => join(file("b-file", "x"), "project"), /b-file\/project: \S+b-file is a file, so nothing can be created under it$/],
        ["/proc/self/x (Node's recursive mkdir never returns there)", () => "/proc/self/x", /--dir \/proc\/self\/x: cannot create \/proc\/self\/x \(ENOENT\)$/],
        ["a directory no one may create in", () => "/sys/ctxbench-init", /--dir \/sys\/ctxbench-init: cannot create \/sys\/ctxbench-init \(E[A-Z]+\)$/],
      ] as const
    ).map(([what, dir, stderr]): BadInputRow => ({ label: `init: --dir that is ${what}`, args: () => ["init", "my-engine", "--dir", dir(), "--no-install"], stderr })),
    {
      label: "init: a package.json that is JSON but not an object",
      args: () => {
        const dir = join(work, `${counter++}-project`);
        mkdirSync(dir);
        writeFileSync(join(dir, "package.json"), "[1, 2]");
        return ["init", "my-engine", "--dir", dir, "--no-install"];
      },
      stderr: /project\/package\.json: not a JSON object; nothing written$/,
    },
    {
      label: "report: evidence nested 100,000 levels deep",
      args: () => ["report", shardFile(0, (_, checks) => void (firstFailing(checks).evidence = { events: ["DEEP"] }), ['"DEEP"', DEEP]), "--out", "deep-report.html", "--format", "html"],
      stderr: /shard-1\.json: \$\.certifications\[0\]\.checks\[\d+\]\.evidence\.events\[0\](\.k)+…: nested deeper than 64 levels of arrays and objects$/,
      absent: ["deep-report.html"],
    },
    {
      label: "report: a result file of 300 MiB",
      args: () => ["report", sparseFile("huge-result.json", 300 * 1024 * 1024), "--out", "huge-report.md", "--format", "markdown"],
      stderr: /huge-result\.json is 300 MiB; ctxbench reads result files of at most 256 MiB$/,
      absent: ["huge-report.md"],
    },
    {
      label: "report: a failing check marked expected with no expectation listed (a tampered result)",
      args: () => ["report", shardFile(0, (_, checks) => void (firstFailing(checks).unexpected = false)), "--out", "tampered.md", "--format", "markdown"],
      stderr: /shard-1\.json: \$\.certifications\[0\]\.checks\[\d+\]\.unexpected: is false, but outcome "fail" with no expectation listed is unexpected$/,
      absent: ["tampered.md"],
    },
    ...(
      [
        ["a directory", () => { const dir = join(work, `${counter++}-dir`); mkdirSync(dir); return dir; }, /--out \S+-dir is a directory, not a file$/],
        ["a path under a file", () => join(file("c-file", "x"), "report.md"), /c-file\/report\.md: \S+c-file is a file, so nothing can be created under it$/],
        ["under /proc/self/x", () => "/proc/self/x/report.md", /--out \/proc\/self\/x\/report\.md: cannot create \/proc\/self\/x \(ENOENT\)$/],
      ] as const
    ).map(([what, out, stderr]): BadInputRow => ({ label: `report: --out that is ${what}, checked before the input is read`, args: () => ["report", shardFile(0), "--out", out()], stderr })),
    ...(
      [
        ["shards of different seeds", (result: ResultJson) => void (result.runInfo.seed = 2), /they come from different seeds: 1 \(\S+shard-1\.json\), 2 \(\S+shard-2\.json\)$/],
        ["shards of different ctxbench versions", (result: ResultJson) => void (result.runInfo.tool.version = "9.9.9"), /they come from different ctxbench versions: \S+ \(\S+shard-1\.json\), 9\.9\.9 \(\S+shard-2\.json\)$/],
        ["shards of different ctxbench commits", (result: ResultJson) => void (result.runInfo.gitSha = "f".repeat(40)), /they come from different ctxbench commits: .+ \(\S+shard-1\.json\), f{40} \(\S+shard-2\.json\)$/],
        ["a shard with a failing check marked expected with no expectation listed (tampered)", (_: ResultJson, checks: CheckResult[]) => void (firstFailing(checks).unexpected = false), /shard-2\.json: \$\.certifications\[0\]\.checks\[\d+\]\.unexpected: is false, but outcome "fail" with no expectation listed is unexpected$/],
        ["a shard whose failing MUST check was turned into a SHOULD one (tampered)", (_: ResultJson, checks: CheckResult[]) => {
          const check = firstFailing(checks);
          check.unexpected = true;
          check.level = "SHOULD";
        }, /shard-2\.json: \$\.certifications\[0\]\.checks\[\d+\]\.level: is "SHOULD", but check "[A-Z0-9-]+\/[a-z-]+" is MUST$/],
        ["a shard with a check this ctxbench does not have", (_: ResultJson, checks: CheckResult[]) => void (checks[0]!.id = `${checks[0]!.rule}/made-up`), /shard-2\.json: \$\.certifications\[0\]\.checks\[0\]\.id: "[A-Z0-9-]+\/made-up" is not a check of ctxbench \S+$/],
        ["a shard listing one check twice", (_: ResultJson, checks: CheckResult[]) => void checks.push({ ...checks[0]! }), /shard-2\.json: \$\.certifications\[0\]\.checks\[\d+\]\.id: check "\S+" appears twice in the certification of "truncate"$/],
        ["shards holding the same check", (_: ResultJson, checks: CheckResult[]) => void checks.push({ ...checks[0]!, id: CHECKS[0]!.id, rule: CHECKS[0]!.rule, level: CHECKS[0]!.level }), /check "\S+" of engine "truncate" appears in two results \(\S+shard-1\.json, \S+shard-2\.json\)$/],
      ] as const
    ).map(([what, edit, stderr]): BadInputRow => ({
      label: `merge: ${what}`,
      args: () => ["merge", shardFile(0), shardFile(1, edit), "--out", "merged", "--format", "json"],
      stderr,
      absent: ["merged"],
    })),
    ...(
      [
        ["a file", () => file("d-file", "x"), /--out \S+d-file is a file, not a directory$/],
        ["/proc/self/x", () => "/proc/self/x", /--out \/proc\/self\/x: cannot create \/proc\/self\/x \(ENOENT\)$/],
      ] as const
    ).map(([what, out, stderr]): BadInputRow => ({ label: `merge: --out that is ${what}, checked before the inputs are read`, args: () => ["merge", shardFile(0), shardFile(1), "--out", out()], stderr })),
    {
      label: "merge: a result file of 300 MiB",
      args: () => ["merge", shardFile(0), sparseFile("huge-shard.json", 300 * 1024 * 1024), "--out", "huge-merged"],
      stderr: /huge-shard\.json is 300 MiB; ctxbench reads result files of at most 256 MiB$/,
      absent: ["huge-merged"],
    },
    {
      label: "engines list: --plugins that is a file",
      args: () => ["engines", "list", "--plugins", file("e-file", "x")],
      stderr: /e-file: plugin directory does not exist$/,
    },

    ...(
      [
        ["certify", ["certify", "--engine", "truncate", "--checks", "ABC-2"]],
        ["compare", ["compare", "--engine", "truncate", "--no-bench"]],
        ["bench", ["bench", "--engine", "truncate", "--suite", "throughput", "--quick"]],
        ["main", ["main", "--quick"]],
      ] as const
    ).flatMap(([command, base]): BadInputRow[] => [
      { label: `${command}: --out that is a file, checked before any engine runs`, args: () => [...base, "--out", file("f-file", "x")], stderr: /--out \S+f-file is a file, not a directory$/ },
      { label: `${command}: --out that is a path under a file`, args: () => [...base, "--out", join(file("g-file", "x"), "out")], stderr: /g-file\/out: \S+g-file is a file, so nothing can be created under it$/ },
      { label: `${command}: --out that is /proc/self/x`, args: () => [...base, "--out", "/proc/self/x"], stderr: /--out \/proc\/self\/x: cannot create \/proc\/self\/x \(ENOENT\)$/ },
    ]),
    ...(
      [
        ["certify", ["certify", "--engine", "truncate", "--checks", "ABC-2"]],
        ["run", ["run", "--engine", "truncate", "--scenario", "basic", "--trace", "never.jsonl"]],
        ["compare", ["compare", "--engine", "truncate", "--no-bench"]],
        ["bench", ["bench", "--engine", "truncate", "--suite", "throughput", "--quick"]],
        ["main", ["main", "--quick", "--out", "never-report"]],
      ] as const
    ).flatMap(([command, base]): BadInputRow[] => [
      { label: `${command}: --seed " " (yargs made it 0)`, args: () => [...base, "--seed", " "], stderr: /--seed is blank; give a whole number$/, absent: ["never.jsonl", "never-report"] },
      { label: `${command}: --seed 1.5`, args: () => [...base, "--seed", "1.5"], stderr: /--seed must be a whole number, got "1\.5"$/, absent: ["never.jsonl", "never-report"] },
      { label: `${command}: --max-time 0`, args: () => [...base, "--max-time", "0"], stderr: /--max-time must be more than 0, got 0$/, absent: ["never.jsonl", "never-report"] },
    ]),
    ...(
      [
        ["certify", ["certify", "--engine", "truncate", "--checks", "ABC-2"]],
        ["compare", ["compare", "--engine", "truncate", "--no-bench"]],
        ["main", ["main", "--quick", "--out", "never-report"]],
      ] as const
    ).map(([command, base]): BadInputRow => ({
      label: `${command}: --timeout 1e10 (Node would fire the timer after 1 ms)`,
      args: () => [...base, "--timeout", "1e10"],
      stderr: /--timeout must be a whole number of milliseconds from 1 to 2147483647 .*, got 1e10$/,
      absent: ["never-report"],
    })),
    ...(
      [
        ["certify", ["certify", "--checks", "ABC-2"]],
        ["run", ["run", "--scenario", "basic", "--trace", "never.jsonl"]],
        ["compare", ["compare", "--no-bench"]],
        ["bench", ["bench", "--suite", "throughput", "--quick"]],
      ] as const
    ).map(([command, base]): BadInputRow => ({ label: `${command}: --engine " " (it selected the compressor)`, args: () => [...base, "--engine", " "], stderr: /--engine is blank; give a name$/, absent: ["never.jsonl"] })),
    {
      label: "run: --trace that is a directory",
      args: () => {
        const dir = join(work, `${counter++}-trace-dir`);
        mkdirSync(dir);
        return ["run", "--engine", "truncate", "--scenario", "basic", "--trace", dir];
      },
      stderr: /--trace \S+trace-dir is a directory, not a file$/,
    },
    { label: "run: --trace under a file", args: () => ["run", "--engine", "truncate", "--scenario", "basic", "--trace", join(file("h-file", "x"), "t.jsonl")], stderr: /h-file\/t\.jsonl: \S+h-file is a file, so nothing can be created under it$/ },
    { label: "run: --trace under /proc/self/x", args: () => ["run", "--engine", "truncate", "--scenario", "basic", "--trace", "/proc/self/x/t.jsonl"], stderr: /--trace \/proc\/self\/x\/t\.jsonl: cannot create \/proc\/self\/x \(ENOENT\)$/ },
    { label: "run: --home that is a file", args: () => ["run", "--engine", "truncate", "--scenario", "basic", "--trace", "never.jsonl", "--home", file("i-file", "x")], stderr: /--home \S+i-file is a file, not a directory$/, absent: ["never.jsonl"] },
    { label: "run: --home that no one may create", args: () => ["run", "--engine", "truncate", "--scenario", "basic", "--trace", "never.jsonl", "--home", "/sys/ctxbench-home"], stderr: /--home \/sys\/ctxbench-home: cannot create \/sys\/ctxbench-home \(E[A-Z]+\)$/, absent: ["never.jsonl"] },
    {
      label: "run: --compaction-timeout 1e10",
      args: () => ["run", "--engine", "truncate", "--scenario", "basic", "--trace", "never.jsonl", "--compaction-timeout", "1e10"],
      stderr: /--compaction-timeout must be a whole number of milliseconds from 1 to 2147483647 .*, got 1e10$/,
      absent: ["never.jsonl"],
    },
    ...BAD_EXPECTATIONS.map(([what, path, stderr]): BadInputRow => ({
      label: `certify: --expectations that is ${what}, refused before any engine runs`,
      args: () => ["certify", "--engine", "truncate", "--checks", "ABC-2", "--expectations", path(), "--out", "never-report"],
      stderr,
      absent: ["never-report"],
    })),
    // Every command that reads the expectations beside a plugin refuses a malformed one the same way
    // (main certifies the bundled engines only, whose expectations ship with ctxbench; bench, run,
    // report and merge read none: the first test below shows a malformed file does not stop bench or run).
    ...(
      [
        ["certify", (plugins: string) => ["certify", "--plugins", plugins, "--engine", "plain", "--checks", "ABC-2", "--out", "never-report"]],
        ["compare", (plugins: string) => ["compare", "--plugins", plugins, "--engine", "plain", "--engine", "truncate", "--quick", "--out", "never-report"]],
      ] as const
    ).map(([command, args]): BadInputRow => ({
      label: `${command}: a plugin's expectations.yaml that is not YAML, refused before any engine runs`,
      args: () => args(pluginWithExpectations("ABC-2/usage-echo: {expected: fail\n")),
      stderr: /plain\/expectations\.yaml: .*(flow|Flow|Missing|end with)/,
      absent: ["never-report"],
    })),
    ...(
      [
        ["under /proc/self/x", "/proc/self/x/e.yaml", /--expectations \/proc\/self\/x\/e\.yaml: cannot create \/proc\/self\/x \(ENOENT\)$/],
        ["under a file", "UNDER-FILE", /j-file\/e\.yaml: \S+j-file is a file, so nothing can be created under it$/],
      ] as const
    ).map(([what, path, stderr]): BadInputRow => ({
      label: `certify: --update-expectations into a file ${what}, refused before the run (it was exit 3 after it)`,
      args: () => ["certify", "--engine", "truncate", "--checks", "ABC-2", "--update-expectations", "--expectations", path === "UNDER-FILE" ? join(file("j-file", "x"), "e.yaml") : path],
      stderr,
    })),
    ...(
      [
        ["certify", ["certify", "--engine", "truncate", "--checks", "ABC-2"], "--out"],
        ["certify", ["certify", "--engine", "truncate", "--checks", "ABC-2"], "--expectations"],
        ["certify", ["certify", "--engine", "truncate", "--checks", "ABC-2"], "--config"],
        ["certify", ["certify", "--engine", "truncate", "--checks", "ABC-2"], "--python"],
        ["certify", ["certify", "--engine", "truncate", "--checks", "ABC-2"], "--hermes-agent"],
        ["certify", ["certify", "--checks", "ABC-2"], "--plugin-module"],
        ["compare", ["compare", "--engine", "truncate", "--no-bench"], "--plugins"],
        ["compare", ["compare", "--engine", "truncate", "--no-bench"], "--out"],
        ["bench", ["bench", "--engine", "truncate", "--suite", "throughput", "--quick"], "--out"],
        ["main", ["main", "--quick"], "--out"],
        ["main", ["main", "--quick", "--out", "never-report"], "--plugins"],
        ["run", ["run", "--engine", "truncate", "--scenario", "basic"], "--trace"],
        ["run", ["run", "--engine", "truncate", "--trace", "never.jsonl"], "--scenario"],
        ["run", ["run", "--engine", "truncate", "--scenario", "basic", "--trace", "never.jsonl"], "--home"],
        ["report", ["report", "RESULT"], "--out"],
        ["merge", ["merge", "RESULT"], "--out"],
        ["scenarios import", ["scenarios", "import", "TRANSCRIPT"], "--out"],
        ["init", ["init", "my-engine", "--no-install"], "--dir"],
        ["engines list", ["engines", "list"], "--hermes-agent"],
      ] as const
    ).map(([command, base, flag]): BadInputRow => ({
      label: `${command}: ${flag} "" (it meant the working directory, silently)`,
      args: () => [
        ...base.map((arg) => (arg === "RESULT" ? shardFile(0) : arg === "TRANSCRIPT" ? file("ok.json", '[{"role":"user","content":"hi"},{"role":"assistant","content":"ok"}]') : arg)),
        flag,
        "",
      ],
      stderr: new RegExp(`${flag} is blank; give a path$`),
      absent: ["never.jsonl", "never-report"],
    })),
    ...(
      [
        ["certify", ["certify", "--engine", "truncate"]],
        ["compare", ["compare", "--engine", "truncate", "--no-bench"]],
      ] as const
    ).map(([command, base]): BadInputRow => ({
      label: `${command}: --checks "" (a blank prefix selected every check)`,
      args: () => [...base, "--checks", ""],
      stderr: /--checks is blank; give a check id, rule or prefix \(e\.g\. CMP-2\)$/,
    })),
    {
      label: "main: a --plugins directory that does not exist leaves no report directory behind",
      args: () => ["main", "--plugins", join(work, "no-such-plugins"), "--quick", "--json", "--out", "never-report"],
      stderr: /no-such-plugins: plugin directory does not exist$/,
      absent: ["never-report"],
    },
    ...(
      [
        ["an unknown rule", ["--rule", "NOPE-9"], /unknown rule "NOPE-9"; rule ids look like CMP-2 \(see ctxbench checks list\)$/],
        ["a blank rule", ["--rule", " "], /--rule is blank; give a rule id \(e\.g\. CMP-2\)$/],
        ["--rule without a value", ["--rule"], /--rule is blank; give a rule id \(e\.g\. CMP-2\)$/],
        ["an extra argument", ["--json", "extra"], /Unknown argument: extra\. See "ctxbench --help" for usage\.$/],
        ["an unknown option", ["--format", "html"], /Unknown arguments?: format/],
      ] as const
    ).map(([what, args, stderr]): BadInputRow => ({ label: `checks list: ${what}`, args: () => ["checks", "list", ...args], stderr })),
    {
      label: "bench: --save-baseline with a path in its name, refused before the suites run",
      args: () => ["bench", "--engine", "truncate", "--suite", "throughput", "--quick", "--save-baseline", "../elsewhere"],
      stderr: /baseline name "\.\.\/elsewhere" may use only letters, digits, "\.", "_" and "-"$/,
      absent: [".ctxbench"],
    },
  ];
  return rows;
}
