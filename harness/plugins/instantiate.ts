import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { UsageError } from "../util/errors.ts";
import { ENGINE_BRAND, isContextEngine, type ContextEngine } from "../contract/context-engine.ts";
import { isTypeScript, moduleFormat } from "./module-format.ts";
import { ensureTypeScriptLoader } from "./typescript-loader.ts";
import { firstLine } from "./yaml-file.ts";

export type PluginModule = Record<string, unknown>;

/**
 * Import a plugin's entry module in the format Node gives it: an ES module through `import()`
 * (whose cache makes repeated and concurrent imports share one evaluation), a CommonJS one through
 * `require` (`import()` of CommonJS TypeScript that requires ctxbench fails as a cycle). Its
 * exports come back as a namespace either way.
 */
export async function importPluginModule(file: string): Promise<PluginModule> {
  try {
    if (isTypeScript(file)) await ensureTypeScriptLoader();
    if (moduleFormat(file) === "module") return (await import(pathToFileURL(file).href)) as PluginModule;
    return commonJsNamespace(createRequire(file)(file));
  } catch (error) {
    throw new UsageError(`${file}: failed to import: ${firstLine(error)}`);
  }
}

/** `module.exports` seen as `import()` would show it: its own properties, and itself as `default`. */
function commonJsNamespace(exported: unknown): PluginModule {
  const namespace: PluginModule = { default: exported };
  if ((typeof exported === "object" && exported !== null) || typeof exported === "function") {
    for (const key of Object.keys(exported)) if (key !== "default") namespace[key] = (exported as Record<string, unknown>)[key];
    const inner = (exported as { default?: unknown; __esModule?: unknown }).default;
    // Compiled ES modules (`exports.default = …` with `__esModule`) keep their default export.
    if ((exported as { __esModule?: unknown }).__esModule === true && inner !== undefined) namespace["default"] = inner;
  }
  return namespace;
}

/**
 * The `ctx` a plugin's `register(ctx)` receives. Only `register_context_engine` matters to a context
 * engine; the other registration calls of a general host are accepted and ignored, as upstream's collector does.
 */
export class EngineCollector {
  readonly engines: ContextEngine[] = [];
  readonly warnings: string[] = [];

  constructor(private readonly origin: string) {}

  register_context_engine(engine: unknown): void {
    if (!isContextEngine(engine)) {
      this.warnings.push(`${this.origin}: register_context_engine() got ${describe(engine)}, not a ContextEngine; ignored`);
      return;
    }
    if (this.engines.length > 0) {
      this.warnings.push(
        `${this.origin}: tried to register context engine "${safeName(engine)}", but "${safeName(this.engines[0]!)}" is already registered; only one context engine is allowed`,
      );
      return;
    }
    this.engines.push(engine);
  }

  register_tool(): void {}
  register_hook(): void {}
  register_command(): void {}
  register_cli_command(): void {}
  register_memory_provider(): void {}
}

/**
 * A fresh engine from a plugin module (REG-2): `register(ctx)` on a new collector if the module has
 * it, otherwise the first exported ContextEngine subclass (the default export, then by name),
 * constructed with no arguments. Subclasses are recognised by the brand, so a plugin built on
 * another copy of the contract is found too.
 */
export async function instanceFromModule(module: PluginModule, file: string): Promise<{ engine: ContextEngine; warnings: string[] }> {
  const causes: string[] = [];
  const register = module["register"];
  if (typeof register === "function") {
    const collector = new EngineCollector(file);
    try {
      await register(collector);
    } catch (error) {
      causes.push(`register() threw: ${firstLine(error)}`);
    }
    if (collector.engines[0]) return { engine: collector.engines[0], warnings: collector.warnings };
    if (causes.length === 0) causes.push("register() registered no context engine");
    causes.push(...collector.warnings);
  }
  const names = Object.keys(module).sort((a, b) => (a === "default" ? -1 : b === "default" ? 1 : a < b ? -1 : a > b ? 1 : 0));
  for (const exportName of names) {
    const value = module[exportName];
    if (!isEngineSubclass(value)) continue;
    let engine: unknown;
    try {
      engine = new (value as new () => unknown)();
    } catch (error) {
      causes.push(`constructing ${exportName === "default" ? "the default export" : exportName} threw: ${firstLine(error)}`);
      continue;
    }
    if (isContextEngine(engine)) return { engine, warnings: [] };
  }
  const cause = causes.length > 0 ? causes.join("; ") : "exports neither register(ctx) nor a ContextEngine subclass";
  throw new UsageError(`${file}: no engine: ${cause}`);
}

function isEngineSubclass(value: unknown): boolean {
  if (typeof value !== "function") return false;
  const prototype = (value as { prototype?: Record<PropertyKey, unknown> }).prototype;
  const base = prototype?.[ENGINE_BRAND];
  return typeof base === "function" && base !== value;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === "function") return "a function";
  if (typeof value === "object") return `an object (${(value as object).constructor?.name ?? "no class"})`;
  return `a ${typeof value}`;
}

/** An engine's name for a message; a throwing getter must not turn a warning into a crash. */
function safeName(engine: ContextEngine): string {
  try {
    return String(engine.name);
  } catch {
    return "(its name getter throws)";
  }
}
