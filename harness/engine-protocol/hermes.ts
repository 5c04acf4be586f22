import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { DISPOSE } from "../contract/native.ts";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EngineFamily, EngineLoadError, EngineProcess, type FamilyOptions, type LlmHandler, type ProcessOptions } from "./family.ts";
import type { PluginManifestInfo, PluginMode } from "./messages.ts";
import { ForkServer } from "./fork-server.ts";
import { findPython } from "./python.ts";
import { remoteEngine, type RemoteEngine } from "./remote-engine.ts";

/**
 * The bridge's entry script, shipped in the package: `bridge/hermes/main.py` at the package root,
 * found from this module in the source tree (harness/engine-protocol/) or in a build (dist/harness/engine-protocol/).
 */
export const HERMES_BRIDGE = bridgeEntry();

function bridgeEntry(): string {
  const candidates = ["../../bridge/hermes/main.py", "../../../bridge/hermes/main.py"].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[0]!;
}

/** What the bridge's directory holds when its entry is missing: tells a removed directory from a removed file. */
function bridgeDirectoryListing(): string {
  try {
    return `; its directory holds: ${readdirSync(dirname(HERMES_BRIDGE)).join(", ") || "nothing"}`;
  } catch (error) {
    return `; its directory cannot be read: ${(error as Error).message}`;
  }
}

/** A Python plugin as discovery found it. */
export interface PythonPluginSpec {
  directory: string;
  /** The name it is selected by. */
  selection: string;
  mode: Exclude<PluginMode, "module">;
  manifest?: PluginManifestInfo | null;
  /** A hermes-agent checkout to put on the engine's path (its real modules, our LLM seam only). */
  hermesAgent?: string | null;
}

export interface PythonEngineOptions {
  /** `--python PATH`; default `python3` on PATH. */
  python?: string;
  /** The run's config (`load_config()`); default `{context: {engine: <selection>}}`. */
  config?: Record<string, unknown>;
  model?: string;
  llm?: LlmHandler;
  loadTimeoutMs?: number;
  callTimeoutMs?: number;
  ambientContext?: () => string | undefined;
  onStderr?: (text: string) => void;
  onMessage?: FamilyOptions["onMessage"];
  /** Where sandboxes are made when the caller gives none (default the OS temp dir). */
  sandboxRoot?: string;
  env?: NodeJS.ProcessEnv;
}

/** Sandboxes this process made; whatever a disposal missed is removed when the process exits. */
const ownSandboxes = new Set<string>();
let cleanupInstalled = false;

function makeSandbox(root: string): string {
  const home = mkdtempSync(join(root, "ctxbench-hermes-"));
  ownSandboxes.add(home);
  if (!cleanupInstalled) {
    cleanupInstalled = true;
    process.once("exit", () => {
      for (const leftover of ownSandboxes) rmSync(leftover, { recursive: true, force: true });
    });
  }
  return home;
}

function removeSandbox(home: string): void {
  ownSandboxes.delete(home);
  rmSync(home, { recursive: true, force: true });
}

/**
 * How the bridge runs: isolated as `-I` would (no user site directory, the script's directory not
 * on the path — `-P` from 3.11, main.py drops it on 3.10 — and no PYTHON* variable of the caller's,
 * scrubbed here) and with no bytecode written (`-B`), but not `-E`: the one variable passed,
 * PYTHONHASHSEED=0, fixes string hashing, so an engine iterating a set gives the same order, and
 * a seed the same outputs, run after run.
 */
export function bridgeArgs(version: string): string[] {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return ["-s", "-B", ...(major > 3 || (major === 3 && minor >= 11) ? ["-P"] : []), HERMES_BRIDGE];
}

/**
 * Bridge processes are forked from one server on POSIX systems; CTXBENCH_PYTHON_FORK=0 starts an
 * interpreter for each instead (as on Windows, which has no fork).
 */
function forkingAllowed(env: NodeJS.ProcessEnv): boolean {
  return process.platform !== "win32" && env["CTXBENCH_PYTHON_FORK"] !== "0";
}

/** The environment a bridge child gets: the caller's without PYTHON* variables or the user's HERMES_HOME (the bridge sets the sandbox's). */
function bridgeEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) if (!key.startsWith("PYTHON") && key !== "HERMES_HOME") env[key] = value;
  env["PYTHONDONTWRITEBYTECODE"] = "1";
  env["PYTHONHASHSEED"] = "0";
  return env;
}

/**
 * Makes engines of one Python plugin: each `createFresh()` starts its own bridge process (an engine
 * family: the instance, its clones, and the plugin's modules, with `HERMES_HOME` a fresh sandbox or
 * the one given), so module-level state never leaks between runs. `disposeAll()` ends them.
 */
export class PythonEngineFactory {
  readonly spec: PythonPluginSpec;
  readonly options: PythonEngineOptions;
  readonly #families = new Set<EngineFamily>();
  readonly #ownHomes = new Map<EngineFamily, string>();
  /** Forks the bridge processes (started with the first); null before, or where there is no fork. */
  #forks: ForkServer | null = null;
  /** Without a fork server: a bridge process started ahead of need, so the next fresh engine skips the interpreter's start. */
  #spare: EngineProcess | null = null;
  #disposed = false;

  constructor(spec: PythonPluginSpec, options: PythonEngineOptions = {}) {
    this.spec = spec;
    this.options = options;
  }

  /**
   * A new family and its first engine. `home` becomes HERMES_HOME (default: a fresh sandbox,
   * removed at dispose). `disposeEngine(engine)` ends the family (clones included).
   */
  async createFresh(options: { home?: string } = {}): Promise<RemoteEngine> {
    const family = await this.startFamily(options);
    let engine: RemoteEngine;
    try {
      engine = remoteEngine(family, await family.describeNew());
    } catch (error) {
      await this.#disposeFamily(family);
      throw error;
    }
    (engine as unknown as Record<symbol, unknown>)[DISPOSE] = () => this.#disposeFamily(family);
    return engine;
  }

  async #disposeFamily(family: EngineFamily): Promise<void> {
    if (!this.#families.delete(family)) return;
    await family.dispose();
    const own = this.#ownHomes.get(family);
    if (own) removeSandbox(own);
    this.#ownHomes.delete(family);
  }

  /** How bridge processes of this factory are started (the same for every family). */
  #processOptions(): ProcessOptions {
    const interpreter = findPython(this.options.python, this.options.env ?? process.env);
    const options: ProcessOptions = {
      command: interpreter.executable,
      args: bridgeArgs(interpreter.version),
      cwd: this.options.sandboxRoot ?? tmpdir(),
      env: bridgeEnv(this.options.env ?? process.env),
    };
    for (const key of ["llm", "loadTimeoutMs", "callTimeoutMs", "ambientContext", "onStderr", "onMessage"] as const) {
      if (this.options[key] !== undefined) (options as unknown as Record<string, unknown>)[key] = this.options[key];
    }
    return options;
  }

  /**
   * A bridge process forked by the fork server; where it cannot fork, the spare if it is still
   * usable, else a new process, and a new spare started for next time.
   */
  async #takeProcess(processOptions: ProcessOptions): Promise<EngineProcess> {
    if (this.#forks === null && !this.#disposed && forkingAllowed(this.options.env ?? process.env)) this.#forks = new ForkServer(processOptions);
    const forked = this.#forks?.alive ? await this.#forks.fork() : null;
    if (forked !== null) return EngineProcess.over(forked.child, forked.streams, processOptions);
    const spare = this.#spare;
    this.#spare = this.#disposed ? null : EngineProcess.spawn(processOptions);
    if (spare?.alive) return spare;
    spare?.kill();
    return EngineProcess.spawn(processOptions);
  }

  async startFamily(options: { home?: string } = {}): Promise<EngineFamily> {
    if (!existsSync(HERMES_BRIDGE)) throw new EngineLoadError(`the Hermes bridge is missing from this installation (${HERMES_BRIDGE}${bridgeDirectoryListing()})`, "process");
    const processOptions = this.#processOptions();
    const own = options.home === undefined ? makeSandbox(this.options.sandboxRoot ?? tmpdir()) : null;
    const home = options.home ?? own!;
    mkdirSync(home, { recursive: true });
    const familyOptions: FamilyOptions = {
      ...processOptions,
      initialize: {
        plugin: { mode: this.spec.mode, directory: this.spec.directory, selection: this.spec.selection, manifest: this.spec.manifest ?? null },
        home,
        config: this.options.config ?? { context: { engine: this.spec.selection } },
        hermesAgent: this.spec.hermesAgent ?? null,
        model: this.options.model ?? "ctxbench/sim",
      },
    };
    let family: EngineFamily;
    try {
      family = await EngineFamily.adopt(await this.#takeProcess(processOptions), familyOptions);
    } catch (error) {
      if (own) removeSandbox(own);
      throw error;
    }
    this.#families.add(family);
    if (own) this.#ownHomes.set(family, own);
    return family;
  }

  get liveFamilies(): number {
    return this.#families.size;
  }

  /** End every family this factory started, and its spare process; later fresh engines start without a spare. */
  async disposeAll(): Promise<void> {
    this.#disposed = true;
    this.#spare?.kill();
    this.#spare = null;
    await Promise.all([...this.#families].map((family) => this.#disposeFamily(family)));
    this.#forks?.close();
    this.#forks = null;
  }
}
