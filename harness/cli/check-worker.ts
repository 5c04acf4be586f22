import type { Argv, CommandModule } from "yargs";
import { CHECKS } from "../conformance/checks/index.ts";
import { runEngineChecks } from "../conformance/run-certification.ts";
import { workerEventLine, type SettledSources, type WorkerEvent } from "../conformance/isolated-runner.ts";
import { loadSelectedEngine, withEngineSelection, type EngineSelectionArgs } from "./engine-options.ts";
import { UsageError } from "../util/errors.ts";
import type { CliIo } from "./io.ts";

interface CheckWorkerArgs extends EngineSelectionArgs {
  "check-id": string[];
  seed: number;
  timeout: number;
  settled: string;
}

/**
 * `ctxbench check-worker` (internal, hidden from --help): runs the named checks against one engine
 * and writes one JSON event per line — a source starting, a check's result, done. `certify` runs
 * it as a child process, so an engine that never returns control costs one worker, not the run.
 */
export function checkWorkerCommand(io: CliIo): CommandModule<object, CheckWorkerArgs> {
  return {
    command: "check-worker",
    describe: false,
    builder: (yargs: Argv) =>
      withEngineSelection(yargs)
        .option("check-id", { type: "string", array: true, default: [] as string[] })
        .option("seed", { type: "number", default: 1 })
        .option("timeout", { type: "number", demandOption: true })
        .option("settled", { type: "string", default: "[]", describe: "JSON [source, {outcome, message}] pairs not to play" }) as unknown as Argv<CheckWorkerArgs>,
    handler: async (args) => {
      const wanted = new Set(args["check-id"]);
      const checks = CHECKS.filter((check) => wanted.has(check.id));
      if (checks.length !== wanted.size) throw new UsageError(`unknown check id among ${[...wanted].join(", ")}`);
      const settled = new Map(JSON.parse(args.settled) as SettledSources);
      const emit = (event: WorkerEvent) => io.stdout(workerEventLine(event));
      // The loader's warnings were printed by the certify process that started this worker.
      const loaded = await loadSelectedEngine({ ...io, stderr: () => undefined }, args, { strict: true });
      await runEngineChecks(loaded, {
        checks,
        seed: args.seed,
        timeoutMs: args.timeout,
        settledSources: settled,
        onSourceStart: (source) => emit({ event: "source", source }),
        onResult: (result) => emit({ event: "result", result }),
      });
      emit({ event: "done" });
    },
  };
}
