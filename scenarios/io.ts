import { jsonInputProblem, readTextInput } from "../harness/util/input-limits.ts";
import { UsageError } from "../harness/util/errors.ts";
import type { Scenario } from "./format.ts";
import { assertScenario, ScenarioFormatError } from "./validate.ts";

/** The canonical bytes of a scenario: compact JSON plus a newline. Same scenario → same bytes. */
export function scenarioToJson(scenario: Scenario): string {
  return `${JSON.stringify(scenario)}\n`;
}

/** Parse and validate scenario JSON; errors name the source and the JSON path. */
export function parseScenario(text: string, source = "scenario"): Scenario {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ScenarioFormatError(source, { path: "$", message: `not JSON: ${(error as Error).message}` });
  }
  const refused = jsonInputProblem(value);
  if (refused !== null) throw new ScenarioFormatError(source, refused);
  assertScenario(value, source);
  return value;
}

/** Read a scenario file (at most MAX_INPUT_BYTES) and validate it. */
export function readScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readTextInput(path, "scenario files");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read scenario file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseScenario(text, path);
}
