export { loadEngine } from "./load.ts";
export { discoverEngines, scanPluginRoots, pluginRoots, BUNDLED_ROOT, ENTRY_MODULES, USER_PLUGIN_SUBDIR } from "./discover.ts";
export { readSelectedEngine, CONFIG_FILE } from "./config.ts";
export { readManifest, MANIFEST_FILE } from "./manifest.ts";
export { runGeneralPlugin } from "./general.ts";
export { EngineCollector, instanceFromModule } from "./instantiate.ts";
export { assertSafeEngineName } from "./engine-name.ts";
export * from "./types.ts";
