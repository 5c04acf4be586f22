/** Regenerates scenarios/scenario.schema.json from scenarios/schema.ts: `npx tsx scenarios/write-schema.ts`. */
import { writeFileSync } from "node:fs";
import { schemaFileText } from "../harness/util/schema.ts";
import { scenarioJsonSchema } from "./schema.ts";

export const scenarioSchemaFileText = (): string => schemaFileText(scenarioJsonSchema());

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL("./scenario.schema.json", import.meta.url), scenarioSchemaFileText());
}
