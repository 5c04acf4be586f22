import Table from "cli-table3";
import { isAbsolute, relative, resolve } from "node:path";
import type { Argv, CommandModule, InferredOptionTypes } from "yargs";
import type { LoadCheck } from "../pipeline/load-check.ts";
import { scanPluginRoots } from "../plugins/discover.ts";
import type { DiscoveredEngine } from "../plugins/types.ts";
import { UsageError } from "../util/errors.ts";
import { wantsColor, type CliIo } from "./io.ts";
import { engineSelection, pythonRuntimeOf } from "./options.ts";
import { parsePath } from "./option-values.ts";

const listOptions = {
  plugins: engineSelection.plugins,
  json: { type: "boolean", default: false, describe: "Print JSON for machines instead of a table" },
  load: { type: "boolean", default: false, describe: "Also load each engine (in a player process of its own) and report whether it loads and its name; exit 2 if one does not" },
  python: engineSelection.python,
  "hermes-agent": { type: "string", coerce: (raw: unknown) => parsePath("--hermes-agent", raw), describe: "A hermes-agent checkout: also list its context-engine plugins and its built-in compressor" },
} as const;

type ListArgs = InferredOptionTypes<typeof listOptions>;

/** `ctxbench engines list`: every engine that `--engine NAME` or `context.engine` could select. */
export function enginesCommand(io: CliIo): CommandModule {
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
              .options(listOptions)
              .example("$0 engines list --plugins ./my-plugins", "Also list the plugins under ./my-plugins")
              .example("$0 engines list --json", "Print { engines, shadowed } as JSON")
              .example("$0 engines list --plugins ./my-plugins --load", "Check that each plugin imports and yields an engine"),
          handler: (args) => listEngines(io, args),
        })
        .demandCommand(1, "Name an action: list."),
    handler: () => undefined,
  };
}

/**
 * The listing is printed whole even when some plugins are broken (no entry module, or with --load
 * one that fails to import or yields no engine); each problem is then one line on stderr, exit 2.
 */
async function listEngines(io: CliIo, args: ListArgs): Promise<void> {
  const { engines, shadowed, broken } = await scanPluginRoots({ cwd: io.cwd, pluginDirs: args.plugins ?? [], ...(args["hermes-agent"] !== undefined ? { hermesAgent: args["hermes-agent"] } : {}) });
  const runtime = pythonRuntimeOf(args);
  // --load starts players; the listing alone does not load them.
  const checks = args.load ? await (await import("../pipeline/load-check.ts")).checkLoads(engines, io.env, { ...runtime, ...(runtime.hermesAgent !== undefined ? { hermesAgent: resolve(io.cwd, runtime.hermesAgent) } : {}) }) : null;
  if (args.json) {
    const listed = engines.map((engine, i) => (checks ? { ...publicFields(engine), load: checks[i] } : publicFields(engine)));
    io.stdout(`${JSON.stringify({ engines: listed, shadowed: shadowed.map(publicFields), broken }, null, 2)}\n`);
  } else {
    io.stdout(renderEnginesTable(engines, io, checks));
    for (const hidden of shadowed) {
      io.stderr(`warning: ${hidden.directory} is hidden by the engine "${hidden.name}" found earlier (bundled engines win a name clash)\n`);
    }
  }
  const problems = [...broken.map((plugin) => plugin.error), ...(checks ?? []).flatMap((check) => (check.error === null ? [] : [check.error]))];
  if (problems.length > 0) throw new UsageError(problems.join("\nctxbench: "));
}

/** What a listing shows of one engine. */
export function publicFields(engine: DiscoveredEngine): Pick<DiscoveredEngine, "name" | "version" | "description" | "directory" | "bundled" | "language"> {
  const { name, version, description, directory, bundled, language } = engine;
  return { name, version, description, directory, bundled, language };
}

/** A table of engines; coloured only on a terminal without NO_COLOR. */
export function renderEnginesTable(engines: readonly DiscoveredEngine[], io: CliIo, checks: readonly LoadCheck[] | null = null): string {
  if (engines.length === 0) return "No context engines found.\n";
  const colour = wantsColor(io);
  const head = ["Name", "Version", "Language", "Bundled", "Description", "Directory", ...(checks ? ["Loads"] : [])];
  // Coloured by hand: the table library's own colour support looks at process.stdout, not at io.
  const table = new Table({
    head: colour ? head.map(cyan) : head,
    style: { head: [], border: [] },
    // Fixed widths for the free-text columns keep the table inside a terminal; the rest size themselves.
    colWidths: [null, null, null, null, 48, null, ...(checks ? [30] : [])],
    wordWrap: true,
  });
  engines.forEach((engine, i) => {
    const row = [engine.name, engine.version ?? "-", engine.language === "python" ? "Python" : "TypeScript", engine.bundled ? "yes" : "no", engine.description, displayPath(engine.directory, io.cwd)];
    const check = checks?.[i];
    if (check) row.push(check.ok ? `yes (name "${check.engineName}")` : `no: ${check.error}`);
    table.push(row);
  });
  return `${table.toString()}\n`;
}

function cyan(text: string): string {
  return `\u001b[36m${text}\u001b[39m`;
}

function displayPath(directory: string, cwd: string): string {
  const path = relative(cwd, directory);
  return path === "" ? "." : path.startsWith("..") || isAbsolute(path) ? directory : path;
}
