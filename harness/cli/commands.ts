import type { CommandModule } from "yargs";
import type { CliIo } from "./io.ts";

/** A command gets the io at construction so it can be run without a process. */
export type CommandFactory = (io: CliIo) => CommandModule<object, any>;

/**
 * One line per command: what the top-level help shows of it, and how to load it. A command's
 * module (and everything it imports) is loaded only when that command runs, so `ctxbench --help`
 * loads none; `command` and `describe` must equal the module's own (a test compares them).
 */
export interface CommandEntry {
  command: string;
  describe: string | false;
  load: () => Promise<CommandFactory>;
}

/** Every command of the CLI, one file each. Add a line here when a command works end to end. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    command: "bench",
    describe: "Benchmark engines: request overhead, prompt-cache stability, compress() throughput, recall quality, the store",
    load: async () => (await import("./bench.ts")).benchCommand,
  },
  {
    command: "certify",
    describe: "Run the conformance checks against one engine: exit 0 certified, 1 not certified",
    load: async () => (await import("./certify.ts")).certifyCommand,
  },
  {
    command: "checks <command>",
    describe: "List the conformance checks: ids, levels, titles and the scenarios and probes each reads",
    load: async () => (await import("./checks.ts")).checksCommand,
  },
  {
    command: "compare",
    describe: "Certify and benchmark several engines and show them side by side",
    load: async () => (await import("./compare.ts")).compareCommand,
  },
  { command: "engines", describe: "Inspect the context engines ctxbench can load", load: async () => (await import("./engines.ts")).enginesCommand },
  {
    command: "init [name]",
    describe: "Scaffold an engine plugin that certifies as generated: plugins/NAME/, a test, a tsconfig and a CI workflow",
    load: async () => (await import("./init.ts")).initCommand,
  },
  {
    command: "main",
    describe: "The main job (what `npm start` runs): list the engines, certify and benchmark each, print the comparison, write the reports",
    load: async () => (await import("./main-job.ts")).mainJobCommand,
  },
  {
    command: "merge <results..>",
    describe: "Join result files (certify shards, certify + bench) into one result; exit 1 if an engine is not certified",
    load: async () => (await import("./merge.ts")).mergeCommand,
  },
  {
    command: "report <results..>",
    describe: "Render one or more result JSON files (from certify or bench) as a report",
    load: async () => (await import("./report.ts")).reportCommand,
  },
  {
    command: "run",
    describe: "Play one scenario (or conformance probe) against one engine on the reference host and write the trace (JSONL)",
    load: async () => (await import("./run.ts")).runCommand,
  },
  {
    command: "scenarios <command>",
    describe: "List, show, generate and import the seeded scenarios engines are run against",
    load: async () => (await import("./scenarios.ts")).scenariosCommand,
  },
];

/** The word that names a command (`merge <results..>` → `merge`). */
export const commandName = (entry: CommandEntry): string => entry.command.split(" ")[0]!;
