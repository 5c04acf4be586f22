import { describe, expect, it } from "vitest";
import type { ToolSchema } from "../../contract/types.ts";
import { LCM_TOOL_SCHEMAS } from "../../../engines/lcm/tools.ts";
import { chooseSearchTool } from "./search-tool.ts";

const tool = (name: string, properties: Record<string, unknown>, required: string[] = Object.keys(properties), description = ""): ToolSchema => ({
  name,
  description,
  parameters: { type: "object", properties, required },
});
const str = { type: "string" };

describe("choosing the tool the quality suite asks for recall", () => {
  it("takes lcm_grep's query among lcm's three tools", () => {
    expect(chooseSearchTool(LCM_TOOL_SCHEMAS, null)).toEqual({ tool: { name: "lcm_grep", parameter: "query", chosenBy: "schema", fixedArguments: {} }, why: null });
  });

  it("finds a tool by its string query parameter whatever its name", () => {
    const choice = chooseSearchTool([tool("archivist_dig", { query: str })], null);
    expect(choice.tool).toMatchObject({ name: "archivist_dig", parameter: "query" });
  });

  it("finds a tool whose name or description says it searches, by its only string parameter", () => {
    const choice = chooseSearchTool([tool("notes", { phrase: str, limit: { type: "integer" } }, ["phrase"], "Looks up earlier notes that match a phrase.")], null);
    expect(choice.tool).toMatchObject({ name: "notes", parameter: "phrase" });
  });

  it("fills other required arguments from their defaults, and passes over a tool that needs one without", () => {
    const withDefault = tool("find", { text: str, scope: { type: "string", enum: ["all"], default: "all" } });
    expect(chooseSearchTool([withDefault], null).tool).toMatchObject({ parameter: "text", fixedArguments: { scope: "all" } });
    const choice = chooseSearchTool([tool("find", { text: str, top_k: { type: "integer" } })], null);
    expect(choice.tool).toBeNull();
  });

  it("says why when there are tools but none takes a query", () => {
    expect(chooseSearchTool([], null)).toEqual({ tool: null, why: "no tools" });
    const choice = chooseSearchTool([tool("describe_node", { node_id: str }, ["node_id"], "Describe one node.")], null);
    expect(choice.tool).toBeNull();
    expect(choice.why).toMatch(/^none of its tools \(describe_node\(node_id\)\) takes a query/);
    expect(choice.why).toContain("ctxbench: {search_tool: NAME}");
  });

  it("follows plugin.yaml's hint, and explains a hint that names no usable tool", () => {
    const tools = [tool("describe_node", { node_id: str }), tool("zork", { blob: str, mode: str }, ["blob", "mode"])];
    expect(chooseSearchTool(tools, { tool: "zork", parameter: "blob" }).tool).toBeNull();
    expect(chooseSearchTool(tools, { tool: "zork", parameter: "blob" }).why).toMatch(/requires arguments besides "blob"/);
    expect(chooseSearchTool([tool("zork", { blob: str })], { tool: "zork", parameter: null }).tool).toEqual({ name: "zork", parameter: "blob", chosenBy: "hint", fixedArguments: {} });
    expect(chooseSearchTool(tools, { tool: "missing", parameter: null }).why).toBe('plugin.yaml names the search tool "missing", which the engine does not offer (it offers describe_node, zork)');
    expect(chooseSearchTool(tools, { tool: "describe_node", parameter: "id" }).why).toMatch(/has no string parameter "id"/);
  });
});
