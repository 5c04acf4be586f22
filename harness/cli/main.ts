import yargs from "yargs";
import { COMMANDS, commandName, type CommandEntry } from "./commands.ts";
import { CtxbenchError } from "../util/errors.ts";
import { escapeTerminal } from "../util/escape.ts";
import { processIo, type CliIo } from "./io.ts";
import { PACKAGE_JSON } from "../util/package-root.ts";
import { skipHelpCache } from "./help-cache.ts";

/** Parse and run one command line; returns the exit code. The one top-level error handler. */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  let exitCode = 0;
  const parser = yargs(argv)
    .scriptName("ctxbench")
    .version(PACKAGE_JSON.version)
    .strict()
    .demandCommand(1, "Name a command; see --help.")
    .recommendCommands()
    // yargs renders the chosen command's whole help before running its handler (to have it for a
    // later showHelp): about 60 ms on every start, half of it wrapping. Only a run asking for help
    // prints it, so only that one is wrapped.
    .wrap(asksForHelp(argv) ? Math.min(110, process.stdout.columns ?? 100) : null)
    .epilogue("Exit codes: 0 ok or certified, 1 not certified or a regression, 2 usage or configuration error, 3 internal error.")
    .fail((message, error) => {
      throw error ?? new UsageErrorFromYargs(message);
    })
    .exitProcess(false);
  if (!asksForHelp(argv)) skipHelpCache(parser);
  try {
    const chosen = assertKnownCommand(argv);
    // Only the command being run is loaded; the others are listed by name for the help.
    for (const entry of COMMANDS) {
      if (entry === chosen) parser.command((await entry.load())(io));
      else parser.command({ command: entry.command, describe: entry.describe, handler: () => undefined });
    }
    let helpText: string | undefined;
    await parser.parseAsync(argv, {}, (_err, _argv, output) => {
      helpText = output;
    });
    if (helpText) io.stdout(helpText.endsWith("\n") ? helpText : `${helpText}\n`);
  } catch (error) {
    exitCode = reportError(error, io);
  }
  return exitCode;
}

/** Whether yargs will print help: asked for by flag, or no command named. */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const options = end === -1 ? argv : argv.slice(0, end);
  return options.length === 0 || options.some((arg) => arg === "--help" || arg === "-h");
}

/** The command the first word names, if any; yargs accepts any first word when it matches no command, so name the mistake instead. */
function assertKnownCommand(argv: readonly string[]): CommandEntry | undefined {
  const first = argv[0];
  if (first === undefined || first.startsWith("-")) return undefined;
  const chosen = COMMANDS.find((entry) => commandName(entry) === first);
  if (!chosen) throw new UsageErrorFromYargs(`Unknown command "${first}". Commands: ${COMMANDS.map(commandName).join(", ")}.`);
  return chosen;
}

class UsageErrorFromYargs extends CtxbenchError {
  constructor(message: string) {
    super(`${message}${/[.!?]$/.test(message) ? "" : "."} See "ctxbench --help" for usage.`, 2);
  }
}

/** How a refusal that lists several problems separates them (engines list: one broken plugin a line). */
const NEXT_PROBLEM = "\nctxbench: ";

/**
 * A refusal on stderr: one line per problem, with the text from files and engines in it
 * (a JSON parser's excerpt of a file, a name from plugin.yaml) shown, never obeyed by the
 * terminal: a newline inside a problem is shown as \n, not started.
 */
function refusalText(message: string): string {
  return `ctxbench: ${message.split(NEXT_PROBLEM).map(escapeTerminal).join(NEXT_PROBLEM)}\n`;
}

function reportError(error: unknown, io: CliIo): number {
  if (error instanceof CtxbenchError) {
    io.stderr(refusalText(error.message));
    return error.exitCode;
  }
  // yargs rethrows an error from an option's coerce (a value the option parsers refuse) as its own YError.
  if (error instanceof Error && error.name === "YError") {
    io.stderr(refusalText(error.message));
    return 2;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr(`ctxbench: internal error: ${detail}\nThis is a bug in ctxbench; please report it with the command you ran.\n`);
  return 3;
}
