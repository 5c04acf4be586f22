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
// loadEngine and the readers below throw these: each carries the exit code the CLI ends with.
export { CtxbenchError, UsageError, type ExitCode } from "./util/errors.ts";
export { selectEngine, type EngineSelection, type SelectEngineOptions } from "./plugins/select.ts";
export type { EngineSpec, EngineCandidate, EngineInfo } from "./plugins/spec.ts";
// The pipeline: every engine runs in player processes; these return the one result JSON.
export { certifyEngine, type CertifyOptions, type CertifyOutcome } from "./pipeline/certify.ts";
export { compareEngines, type CompareRequest, type CompareOutcome } from "./pipeline/compare.ts";
export { benchStage as benchEngines, type BenchStageOptions, type BenchStageResult } from "./pipeline/bench.ts";
export { defaultBounds, type Bounds } from "./pipeline/bounds.ts";
export type { ResultJson, Certification, BenchSuiteResult } from "./result/index.ts";
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
export {
  playScenario,
  DEFAULT_COMPACTION_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  type PlayOptions,
  type PlayResult,
} from "./host/play.ts";
export { assembleRequest, type AssembledRequest, type AssemblyState } from "./host/assemble.ts";
export { sanitizeRequest } from "./host/sanitize.ts";
export { planCacheBreakpoints } from "./host/cache-plan.ts";
export { cloneMessage, cloneMessages } from "./host/clone.ts";
export { sanitizeMemoryContext } from "./host/memory-context.ts";
export { SimulatedProvider, type ProviderReply, type ProviderRequest } from "./provider/simulated-provider.ts";
export { PromptCache } from "./provider/prompt-cache.ts";
export { TraceRecorder, type HookOutcome, type CallContext } from "./trace/recorder.ts";
export { canonicalJson, digestValue } from "./trace/canonical-json.ts";
export { serializeTrace, parseTrace, readTraceFile, writeTraceFile, serializeTraceWithoutDurations } from "./trace/jsonl.ts";
export type * from "./trace/events.ts";
export type * from "../scenarios/format.ts";
export {
  SCENARIO_FORMAT_VERSION,
  buildScenario,
  listScenarios,
  DEFAULT_SEED,
  UnknownScenarioError,
  generateScenario,
  deterministicCallId,
  TOOL_CALL_ID_STYLES,
  importScenarios,
  ImportError,
  readScenarioFile,
  parseScenario,
  scenarioToJson,
  assertScenario,
  findScenarioProblem,
  ScenarioFormatError,
  SCENARIO_SCHEMA,
  countScenarioMessages,
  sessionMessages,
  type ScenarioInfo,
  type GenerateOptions,
  type ToolCallIdStyle,
  type InterleaveMode,
  type ImportOptions,
} from "../scenarios/index.ts";
// Conformance: the check catalogue, the runner and the certification verdict.
export {
  CHECKS,
  selectChecks,
  RULES,
  ENGINE_RULES,
  findRule,
  PROBES,
  runChecks,
  playSource,
  evaluateChecks,
  standardRecorders,
  readExpectations,
  updatedExpectations,
  writeExpectations,
  isUnexpected,
  parseShard,
  shardChecks,
  FIXTURES,
  FixtureBaseEngine,
  type Check,
  type CheckRun,
  type Evaluation,
  type Evidence as CheckEvidence,
  type Outcome as CheckRunOutcome,
  type EngineUnderTest,
  type RunnerOptions,
  type PlayableEngine,
  type RunOutcome,
  type SourceRef,
  type Expectation,
  type Expectations,
  type Rule,
  type Fixture,
  type Shard,
} from "./conformance/index.ts";
