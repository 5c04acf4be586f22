// The scenarios module: format, validation, generator, catalogue and import.
export * from "./format.ts";
export { buildScenario, DEFAULT_SEED, listScenarios, UnknownScenarioError, type ScenarioInfo } from "./catalogue/index.ts";
export { generateScenario, DEFAULT_CONTEXT_LENGTH, DEFAULT_MODEL, GENERATE_LIMITS, GenerateLimitError, estimateScenarioBytes, type GenerateOptions } from "./generate/generate.ts";
export { deterministicCallId, TOOL_CALL_ID_STYLES, CONSTANT_TOOL_CALL_ID, type ToolCallIdStyle } from "../harness/testkit/tool-call-ids.ts";
export { INTERLEAVE_MODES, type InterleaveMode } from "./generate/schedule.ts";
export { SCENARIO_REF_DATE } from "./generate/faker.ts";
export { importScenarios, ImportError, OLDEST_IMPORTABLE_STORE_VERSION, type ImportOptions } from "./import/index.ts";
export { parseScenario, readScenarioFile, scenarioToJson } from "./io.ts";
export { scenarioFromArgument } from "./argument.ts";
export { assertScenario, findScenarioProblem, SCENARIO_SCHEMA, ScenarioFormatError } from "./validate.ts";
export { countScenarioMessages, sessionMessages, sessionTokensRough, turnMessages } from "./transcript.ts";
