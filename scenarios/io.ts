import { readFileSync } from "node:fs";
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
  assertScenario(value, source);
  return value;
}

/** Read a scenario file and validate it. */
export function readScenarioFile(path: string): Scenario {
  return parseScenario(readFileSync(path, "utf8"), path);
}
