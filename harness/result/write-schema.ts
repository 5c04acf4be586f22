/** Regenerates harness/result/result.schema.json from the result schema: `npx tsx harness/result/write-schema.ts`. */
import { writeFileSync } from "node:fs";
import { schemaFileText } from "../util/schema.ts";
import { resultJsonSchema } from "./schema.ts";

export const resultSchemaFileText = (): string => schemaFileText(resultJsonSchema());

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL("./result.schema.json", import.meta.url), resultSchemaFileText());
}
