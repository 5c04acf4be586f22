/** Regenerates reports/result.schema.json from the shape in result.ts: `npx tsx reports/write-schema.ts`. */
import { writeFileSync } from "node:fs";
import { resultJsonSchema } from "./result.ts";

export const schemaFileText = (): string => `${JSON.stringify(resultJsonSchema(), null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL("./result.schema.json", import.meta.url), schemaFileText());
}
