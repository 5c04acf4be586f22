import Table from "cli-table3";
import { relative, isAbsolute } from "node:path";
import type { Argv, CommandModule } from "yargs";
import { scanPluginRoots } from "../plugins/discover.ts";
import { disposeEngine } from "../contract/native.ts";
import { importPluginModule, instanceFromModule } from "../plugins/instantiate.ts";
import { loadPythonPlugin } from "../plugins/python-plugin.ts";
import type { DiscoveredEngine } from "../plugins/types.ts";
import { firstLine } from "../plugins/yaml-file.ts";
import { UsageError } from "../util/errors.ts";
import { wantsColor, type CliIo } from "./io.ts";

interface ListArgs {
  plugins?: string[] | undefined;
  json?: boolean | undefined;
  load?: boolean | undefined;
  python?: string | undefined;
  "hermes-agent"?: string | undefined;
}

/** With --load: whether the entry module imports and yields an engine, and that engine's own name (REG-5). */
export interface LoadCheck {
  ok: boolean;
  engineName: string | null;
  error: string | null;
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
              .option("load", { type: "boolean", default: false, describe: "Also import each engine and report whether it loads and its name; exit 2 if one does not" })
              .option("python", { type: "string", describe: "The Python interpreter for --load of Python plugins (default python3 on PATH)" })
              .option("hermes-agent", { type: "string", describe: "A hermes-agent checkout: also list its context-engine plugins and its built-in compressor" })
              .example("$0 engines list --plugins ./my-plugins", "Also list the plugins under ./my-plugins")
              .example("$0 engines list --json", "Print { engines, shadowed } as JSON")
              .example("$0 engines list --plugins ./my-plugins --load", "Check that each plugin imports and yields an engine"),
          handler: async (args: ListArgs) => listEngines(io, args),
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
  const checks = args.load ? await Promise.all(engines.map((engine) => checkLoad(engine, args))) : null;
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
    colWidths: [null, null, null, null, 48, null, ...(checks ? [30] : [])] as unknown as number[],
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

async function checkLoad(engine: DiscoveredEngine, args: ListArgs): Promise<LoadCheck> {
  try {
    if (engine.language === "python") {
      const loaded = await loadPythonPlugin(engine, { ...(args.python !== undefined ? { python: args.python } : {}), ...(args["hermes-agent"] !== undefined ? { hermesAgent: args["hermes-agent"] } : {}) });
      const name = String(loaded.engine.name);
      await disposeEngine(loaded.engine);
      return { ok: true, engineName: name, error: null };
    }
    const module = await importPluginModule(engine.entry);
    const { engine: instance } = await instanceFromModule(module, engine.entry);
    return { ok: true, engineName: String(instance.name), error: null };
  } catch (error) {
    return { ok: false, engineName: null, error: firstLine(error) };
  }
}

function displayPath(directory: string, cwd: string): string {
  const path = relative(cwd, directory);
  return path === "" ? "." : path.startsWith("..") || isAbsolute(path) ? directory : path;
}
