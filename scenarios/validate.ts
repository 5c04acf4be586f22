import { readFileSync } from "node:fs";
import type { Scenario, ScheduleStep } from "./format.ts";
import { UsageError } from "../harness/util/errors.ts";
import { JsonSchemaValidator, type SchemaNode, type SchemaProblem } from "./json-schema.ts";

/** The published JSON Schema of the scenario format, as data. */
export const SCENARIO_SCHEMA: SchemaNode = JSON.parse(
  readFileSync(new URL("./scenario.schema.json", import.meta.url), "utf8"),
) as SchemaNode;

const schemaValidator = new JsonSchemaValidator(SCENARIO_SCHEMA);

/** A scenario that does not conform: names the JSON path of the first problem (exit 2). */
export class ScenarioFormatError extends UsageError {
  constructor(
    readonly source: string,
    readonly problem: SchemaProblem,
  ) {
    super(`${source}: ${problem.path}: ${problem.message}`);
  }
}

/** The first problem in `value` as a scenario (schema first, then cross references), or null. */
export function findScenarioProblem(value: unknown): SchemaProblem | null {
  return schemaValidator.validate(value) ?? crossReferenceProblem(value as Scenario);
}

/** Throws ScenarioFormatError unless `value` is a valid scenario. */
export function assertScenario(value: unknown, source = "scenario"): asserts value is Scenario {
  const problem = findScenarioProblem(value);
  if (problem) throw new ScenarioFormatError(source, problem);
}

/** Faults after which the turn has no further provider response. */
const ENDS_THE_TURN: ReadonlySet<string> = new Set(["content-policy", "terminal", "interrupted"]);

/** What the schema cannot say: ids that must resolve, and a schedule that plays every turn once, in order. */
function crossReferenceProblem(scenario: Scenario): SchemaProblem | null {
  const turnCounts = new Map<string, number>();
  for (const [i, session] of scenario.sessions.entries()) {
    if (turnCounts.has(session.id)) return { path: `$.sessions[${i}].id`, message: `duplicate session id "${session.id}"` };
    turnCounts.set(session.id, session.turns.length);
  }
  for (const [i, session] of scenario.sessions.entries()) {
    for (const [t, turn] of session.turns.entries()) {
      const last = turn.steps.length - 1;
      for (const [s, step] of turn.steps.entries()) {
        if (s < last && step.fault && ENDS_THE_TURN.has(step.fault.kind)) {
          return { path: `$.sessions[${i}].turns[${t}].steps[${s}].fault`, message: `a ${step.fault.kind} fault ends the turn, so it must be the last step` };
        }
      }
    }
  }
  for (const [i, legacy] of (scenario.legacyStore?.sessions ?? []).entries()) {
    const m = legacy.messages.findIndex((message) => "message_uid" in message);
    if (m >= 0) return { path: `$.legacyStore.sessions[${i}].messages[${m}].message_uid`, message: "a v30 row has no message_uid column" };
  }
  const createdBy = new Map<string, number>();
  for (const [i, step] of scenario.schedule.entries()) {
    if (step.kind === "event" && "newSession" in step.event) {
      if (createdBy.has(step.event.newSession)) {
        return { path: `$.schedule[${i}].event.newSession`, message: `session "${step.event.newSession}" is created twice` };
      }
      createdBy.set(step.event.newSession, i);
    }
  }
  const nextTurn = new Map<string, number>();
  for (const [i, step] of scenario.schedule.entries()) {
    const problem = scheduleStepProblem(step, i, turnCounts, createdBy, nextTurn);
    if (problem) return problem;
  }
  for (const [id, count] of turnCounts) {
    if ((nextTurn.get(id) ?? 0) !== count) {
      return { path: "$.schedule", message: `session "${id}" has ${count} turn(s) but the schedule plays ${nextTurn.get(id) ?? 0}` };
    }
  }
  for (const [key, list] of [["canaries", scenario.canaries], ["secrets", scenario.secrets]] as const) {
    for (const [i, planted] of list.entries()) {
      const count = turnCounts.get(planted.session);
      if (count === undefined) return { path: `$.${key}[${i}].session`, message: `unknown session "${planted.session}"` };
      if (planted.turn >= count) return { path: `$.${key}[${i}].turn`, message: `turn ${planted.turn} is past the session's ${count} turn(s)` };
    }
  }
  const tokens = new Set<string>();
  for (const [i, canary] of scenario.canaries.entries()) {
    if (tokens.has(canary.token)) return { path: `$.canaries[${i}].token`, message: `canary token "${canary.token}" is not unique` };
    if (!canary.fact.includes(canary.token)) return { path: `$.canaries[${i}].fact`, message: "the fact does not contain its token" };
    tokens.add(canary.token);
  }
  return null;
}

function scheduleStepProblem(
  step: ScheduleStep,
  index: number,
  turnCounts: Map<string, number>,
  createdBy: Map<string, number>,
  nextTurn: Map<string, number>,
): SchemaProblem | null {
  const path = `$.schedule[${index}]`;
  const declared = turnCounts.get(step.session);
  const creator = createdBy.get(step.session);
  if (declared === undefined && creator === undefined) {
    return { path: `${path}.session`, message: `unknown session "${step.session}"` };
  }
  if (creator !== undefined && creator >= index) {
    return { path: `${path}.session`, message: `session "${step.session}" is used before the event at $.schedule[${creator}] creates it` };
  }
  if (step.kind === "turn") {
    if (declared === undefined) return { path: `${path}.session`, message: `session "${step.session}" declares no turns` };
    const expected = nextTurn.get(step.session) ?? 0;
    if (step.turn !== expected) return { path: `${path}.turn`, message: `expected turn ${expected} of "${step.session}", got ${step.turn}` };
    if (step.turn >= declared) return { path: `${path}.turn`, message: `session "${step.session}" has only ${declared} turn(s)` };
    nextTurn.set(step.session, expected + 1);
  }
  return null;
}
