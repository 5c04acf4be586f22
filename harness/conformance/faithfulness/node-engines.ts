import { fileURLToPath } from "node:url";
import { EngineFamily, type FamilyOptions } from "../../engine-protocol/family.ts";
import { remoteEngine, type RemoteEngine } from "../../engine-protocol/remote-engine.ts";

export const NODE_ADAPTER = fileURLToPath(new URL("./node-adapter.mjs", import.meta.url));

export interface NodeEngineSpec {
  /** The entry module (a plugin's index.ts, or a module exporting a factory). */
  entry: string;
  /** The name it is selected by (passed to `exportName`'s factory). */
  selection: string;
  /** A ContextEngine subclass to construct, or a factory `(selection) => engine`; default the plugin's register(ctx)/first subclass. */
  exportName?: string;
  directory?: string;
}

/**
 * TypeScript engines behind the engine protocol, through the Node adapter: one adapter process
 * holds every instance (as in-process engines share one module graph), each `createFresh()` is
 * a `create` request. It exists to prove the protocol faithful; ctxbench runs TypeScript engines
 * in-process otherwise.
 */
export class NodeEngineFactory {
  readonly #spec: NodeEngineSpec;
  readonly #options: Partial<FamilyOptions>;
  #family: Promise<EngineFamily> | null = null;

  constructor(spec: NodeEngineSpec, options: Partial<FamilyOptions> = {}) {
    this.#spec = spec;
    this.#options = options;
  }

  #start(): Promise<EngineFamily> {
    this.#family ??= EngineFamily.start({
      command: process.execPath,
      args: [NODE_ADAPTER],
      initialize: {
        plugin: { mode: "module", directory: this.#spec.directory ?? this.#spec.entry, selection: this.#spec.selection, entry: this.#spec.entry, ...(this.#spec.exportName ? { exportName: this.#spec.exportName } : {}) },
        home: process.cwd(),
        config: {},
      },
      loadTimeoutMs: 60_000,
      ...this.#options,
    });
    return this.#family;
  }

  async createFresh(): Promise<RemoteEngine> {
    const family = await this.#start();
    return remoteEngine(family, await family.describeNew());
  }

  async dispose(): Promise<void> {
    if (this.#family) await (await this.#family.catch(() => null))?.dispose();
    this.#family = null;
  }
}
