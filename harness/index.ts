// The public API of ctxbench: an explicit export list.
export {
  ContextEngine,
  ENGINE_BRAND,
  isContextEngine,
  overridesHook,
  type ContextEngineInit,
  type OptionalHook,
} from "./contract/context-engine.ts";
export {
  PERSISTENCE_ONLY_MESSAGE_FIELDS,
  stripPersistenceFields,
  stripAll,
  hasPersistenceFields,
} from "./contract/persistence-fields.ts";
export type * from "./contract/types.ts";
export { validateSequence, isValidSequence, type SequenceFinding, type SequenceFindingKind } from "./contract/validate.ts";
export { estimateTokensRough, estimateMessageTokensRough } from "./contract/tokens.ts";
export { countTokensExact, estimateTokensExact, estimateMessageTokensExact } from "./contract/tokens-exact.ts";
export {
  loadEngine,
  discoverEngines,
  readSelectedEngine,
  DEFAULT_ENGINE,
  type DiscoveredEngine,
  type DiscoverOptions,
  type EngineSource,
  type LoadEngineOptions,
  type LoadedEngine,
  type PluginManifest,
} from "./plugins/index.ts";
export { UsageError, NegativeVerdict, CtxbenchError } from "./cli/errors.ts";
export {
  SessionStore,
  OlderBuildWriter,
  writeLegacyStore,
  StoreInputError,
  StoreOpenError,
  createRandomMinter,
  createSeededMinter,
  SCHEMA_VERSION,
  LEGACY_SCHEMA_VERSION,
  type UidMinter,
  type SessionStoreOptions,
  type StoreOpenReport,
  type RestoreOptions,
  type RewindOutcome,
  type SessionExport,
  type ExportedMessage,
  type SessionRecord,
  type MessageRow,
} from "./store/index.ts";
