import Table from "cli-table3";
import { relative, isAbsolute } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { scanPluginRoots } from "../plugins/discover.ts";
import type { DiscoveredEngine } from "../plugins/types.ts";
import type { CliIo } from "./io.ts";

interface ListArgs {
  plugins?: string[] | undefined;
  json?: boolean | undefined;
}

/** `ctxbench engines list`: every engine that `--engine NAME` or `context.engine` could select. */
export function enginesCommand(io: CliIo): CommandModule<object, any> {
  return {
    command: "engines",
    describe: "Inspect the context engines ctxbench can load",
    builder: (yargs: Argv) =>
      yargs
        .command({
          command: "list",
          describe: "List bundled engines and plugin directories (plugins/context_engine/ and each --plugins DIR)",
          builder: (sub: Argv) =>
            sub
              .option("plugins", { type: "string", array: true, describe: "Another directory holding plugin directories (repeatable)" })
              .option("json", { type: "boolean", default: false, describe: "Print JSON for machines instead of a table" })
              .example("$0 engines list --plugins ./my-plugins", "Also list the plugins under ./my-plugins")
              .example("$0 engines list --json", "Print { engines, shadowed } as JSON"),
          handler: async (args: ListArgs) => listEngines(io, args),
        })
        .demandCommand(1, "Name an action: list."),
    handler: () => undefined,
  };
}

async function listEngines(io: CliIo, args: ListArgs): Promise<void> {
  const { engines, shadowed } = await scanPluginRoots({ cwd: io.cwd, pluginDirs: args.plugins ?? [] });
  if (args.json) {
    io.stdout(`${JSON.stringify({ engines: engines.map(publicFields), shadowed: shadowed.map(publicFields) }, null, 2)}\n`);
    return;
  }
  io.stdout(renderEnginesTable(engines, io));
  for (const hidden of shadowed) {
    io.stderr(`warning: ${hidden.directory} is hidden by the engine "${hidden.name}" found earlier (bundled engines win a name clash)\n`);
  }
}

/** What a listing shows of one engine. */
export function publicFields(engine: DiscoveredEngine): Pick<DiscoveredEngine, "name" | "version" | "description" | "directory" | "bundled"> {
  const { name, version, description, directory, bundled } = engine;
  return { name, version, description, directory, bundled };
}

/** A table of engines; coloured only on a terminal without NO_COLOR. */
export function renderEnginesTable(engines: readonly DiscoveredEngine[], io: CliIo): string {
  if (engines.length === 0) return "No context engines found.\n";
  const colour = io.isTty && !io.env["NO_COLOR"];
  const table = new Table({
    head: ["Name", "Version", "Bundled", "Description", "Directory"],
    style: colour ? { head: ["cyan"], border: ["grey"] } : { head: [], border: [] },
    // Fixed widths for the free-text columns keep the table inside a terminal; the rest size themselves.
    colWidths: [null, null, null, 48, null] as unknown as number[],
    wordWrap: true,
  });
  for (const engine of engines) {
    table.push([engine.name, engine.version ?? "-", engine.bundled ? "yes" : "no", engine.description, displayPath(engine.directory, io.cwd)]);
  }
  return `${table.toString()}\n`;
}

function displayPath(directory: string, cwd: string): string {
  const path = relative(cwd, directory);
  return path === "" ? "." : path.startsWith("..") || isAbsolute(path) ? directory : path;
}
