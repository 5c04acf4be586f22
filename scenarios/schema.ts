/**
 * The scenario format as one schema: it validates every scenario read (scenarios/validate.ts)
 * and generates scenario.schema.json (`npx tsx scenarios/write-schema.ts`). The types in
 * format.ts are checked against it at compile time, so the two cannot drift apart.
 */
import { ROLES, type ContentPart, type Message, type Role } from "../harness/contract/types.ts";
import {
  array,
  boolean,
  integer,
  jsonSchemaDocument,
  literal,
  named,
  nullable,
  object,
  oneOf,
  optional,
  record,
  string,
  taggedUnion,
  typed,
  union,
  type Infer,
} from "../harness/util/schema.ts";
import { SCENARIO_FORMAT_VERSION, type Scenario } from "./format.ts";

const nonEmpty = () => string({ minLength: 1 });
const count = () => integer({ minimum: 0 });

const contentPart = typed<ContentPart>(named("ContentPart", object({ type: nonEmpty() }, { open: true })));
const content = named("Content", union([string(), array(contentPart)]));

const wireToolCall = object(
  { id: string(), type: literal("function"), function: object({ name: string(), arguments: string() }, { open: true }) },
  { open: true },
);

/** A message as the store holds it: the contract's Message, open to the host's other fields. */
const message = typed<Message>(
  named(
    "Message",
    object(
      {
        role: oneOf<Role>(ROLES),
        content: optional(nullable(content)),
        tool_call_id: optional(string()),
        tool_calls: optional(array(wireToolCall)),
        message_uid: optional(nonEmpty()),
      },
      { open: true },
    ),
  ),
);

const toolCallUids = named("ToolCallUids", record(union([string(), array(nullable(string()))])));

const toolCall = named(
  "ToolCall",
  object({
    id: nonEmpty(),
    name: nonEmpty(),
    arguments: string(),
    result: content,
    resultMessageUid: optional(nonEmpty()),
    resultToolCallUid: optional(nonEmpty()),
    resultMissing: optional(boolean()),
  }),
);

const providerFault = named(
  "ProviderFault",
  taggedUnion("kind", [
    object({ kind: literal("transient"), failures: integer({ minimum: 1, maximum: 100 }) }),
    object({ kind: literal("content-policy") }),
    object({ kind: literal("terminal") }),
    object({ kind: literal("context-overflow") }),
    object({ kind: literal("interrupted") }),
    object({ kind: literal("slow"), delayMs: count() }),
  ]),
);

const assistantStep = named(
  "AssistantStep",
  object({
    content: nullable(string()),
    toolCalls: optional(array(toolCall)),
    fault: optional(providerFault),
    messageUid: optional(nonEmpty()),
    toolCallUids: optional(toolCallUids),
  }),
);

const turn = named(
  "Turn",
  object({ user: content, steps: array(assistantStep), taskId: optional(string()), userMessageUid: optional(nonEmpty()) }),
);

const session = named(
  "Session",
  object({ id: nonEmpty(), systemPrompt: string(), platform: optional(string()), turns: array(turn), systemMessageUid: optional(nonEmpty()) }),
);

const newSession = () => nonEmpty();
const rowEdit = { messageIndex: count(), content: string() };

const hostEvent = named(
  "HostEvent",
  taggedUnion("type", [
    object({ type: literal("compress"), focus_topic: optional(string()) }),
    object({ type: literal("restart") }),
    object({ type: literal("branch"), newSession: newSession() }),
    object({ type: literal("rewind"), keepMessages: count() }),
    object({ type: literal("export-import"), newSession: newSession() }),
    object({ type: literal("rotate"), newSession: newSession() }),
    object({ type: literal("legacy-write"), messages: array(message, { minItems: 1 }) }),
    object({ type: literal("content-rewrite"), ...rowEdit }),
    object({ type: literal("duplicate-row"), ...rowEdit }),
    object({ type: literal("timeout-next-compaction") }),
    object({ type: literal("reset") }),
    object({ type: literal("end") }),
  ]),
);

const scheduleStep = named(
  "ScheduleStep",
  taggedUnion("kind", [
    object({ kind: literal("turn"), session: nonEmpty(), turn: count() }),
    object({ kind: literal("event"), session: nonEmpty(), event: hostEvent }),
  ]),
);

const canary = named(
  "Canary",
  object({ session: nonEmpty(), topic: nonEmpty(), fact: nonEmpty(), token: string({ minLength: 4 }), turn: count() }),
);

const fakeSecret = named("FakeSecret", object({ session: nonEmpty(), kind: nonEmpty(), value: string({ minLength: 8 }), turn: count() }));

const legacyStore = named(
  "LegacyStore",
  object({
    sessions: array(object({ id: nonEmpty(), messages: array(message) }), { minItems: 1 }),
    backfillChunk: integer({ minimum: 1, maximum: 1_000_000 }),
    backfillBudgetMs: integer({ minimum: 0, maximum: 60_000 }),
    opens: integer({ minimum: 1, maximum: 1000 }),
  }),
);

const hostSettings = named(
  "HostSettings",
  object({
    /** Node's timers take at most 2^31 − 1 ms. */
    compactionTimeoutMs: optional(integer({ minimum: 1, maximum: 2_147_483_647 })),
    compactionMode: optional(oneOf(["in-place", "rotation"])),
    poolSize: optional(integer({ minimum: 1, maximum: 64 })),
  }),
);

export const scenarioSchema = named(
  "Scenario",
  object({
    formatVersion: literal(SCENARIO_FORMAT_VERSION),
    name: nonEmpty(),
    description: string(),
    seed: integer(),
    rules: array(string({ pattern: "^[A-Z]+-[0-9]+$" })),
    model: nonEmpty(),
    context_length: integer({ minimum: 1 }),
    sessions: array(session, { minItems: 1 }),
    schedule: array(scheduleStep),
    canaries: array(canary),
    secrets: array(fakeSecret),
    legacyStore: optional(legacyStore),
    host: optional(hostSettings),
  }),
);

/** The published JSON Schema of the scenario format (scenario.schema.json), as data. */
export const scenarioJsonSchema = (): Record<string, unknown> =>
  jsonSchemaDocument(scenarioSchema, {
    $id: `urn:ctxbench:scenario:${SCENARIO_FORMAT_VERSION}`,
    title: `ctxbench scenario (format version ${SCENARIO_FORMAT_VERSION})`,
    description:
      "A seeded, JSON-serialisable script the reference host plays against one engine. Generated from scenarios/schema.ts, which validates every scenario read.",
  });

// The hand-written types of format.ts and the schema describe the same documents.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const formatMatchesSchema: Same<Infer<typeof scenarioSchema>, Scenario> = true;
void formatMatchesSchema;
