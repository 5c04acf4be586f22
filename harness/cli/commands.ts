import type { CommandModule } from "yargs";
import type { CliIo } from "./io.ts";
import { certifyCommand } from "./certify.ts";
import { checkWorkerCommand } from "./check-worker.ts";
import { benchCommand } from "./bench.ts";
import { compareCommand } from "./compare.ts";
import { enginesCommand } from "./engines.ts";
import { mainJobCommand } from "./main-job.ts";
import { mergeCommand } from "./merge.ts";
import { reportCommand } from "./report.ts";
import { runCommand } from "./run.ts";
import { scenariosCommand } from "./scenarios.ts";

/** A command gets the io at construction so it can be run without a process. */
export type CommandFactory = (io: CliIo) => CommandModule<object, any>;

/** Every command of the CLI, one file each. Add a line here when a command works end to end. */
export const commandFactories: CommandFactory[] = [
  benchCommand,
  certifyCommand,
  checkWorkerCommand,
  compareCommand,
  enginesCommand,
  mainJobCommand,
  mergeCommand,
  reportCommand,
  runCommand,
  scenariosCommand,
];
