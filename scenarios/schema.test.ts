import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildScenario } from "./catalogue/index.ts";
import { findScenarioProblem } from "./validate.ts";
import { scenarioSchemaFileText } from "./write-schema.ts";

describe("the published scenario schema", () => {
  it("is generated from scenarios/schema.ts (regenerate with npx tsx scenarios/write-schema.ts)", () => {
    expect(readFileSync(new URL("./scenario.schema.json", import.meta.url), "utf8")).toBe(scenarioSchemaFileText());
  });

  it("refuses keys that only exist on Object.prototype, as any other unknown key", () => {
    for (const key of ["constructor", "toString", "__proto__"]) {
      const scenario = JSON.parse(JSON.stringify(buildScenario("basic")).replace('"formatVersion":1', `"formatVersion":1,"${key}":{}`));
      expect(findScenarioProblem(scenario), key).toEqual({ path: `$.${key}`, message: `unknown property "${key}"` });
    }
  });
});
