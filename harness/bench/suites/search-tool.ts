/**
 * Which of an engine's tools the quality suite asks for recall. An engine's plugin.yaml may name
 * it (`ctxbench: {search_tool: NAME}`); otherwise the tool is found by its schema: a tool taking a
 * string parameter that reads as a query (named query, q, pattern…), or whose name or description
 * says it searches. Whatever is chosen is named in the result, and an engine whose tools offer
 * nothing usable gets the reason instead of a figure.
 */
import type { ToolSchema } from "../../contract/types.ts";

/** What plugin.yaml may declare under `ctxbench:`. */
export interface SearchToolHint {
  /** The tool to ask. */
  tool: string;
  /** Its string parameter that takes the query; found by the schema when absent. */
  parameter: string | null;
}

export interface SearchTool {
  name: string;
  /** The string parameter the query goes in. */
  parameter: string;
  chosenBy: "hint" | "schema";
  /** Other required arguments, filled from their schema defaults. */
  fixedArguments: Record<string, unknown>;
}

export type SearchToolChoice = { tool: SearchTool; why: null } | { tool: null; why: string };

/** Parameter names that read as "the query", in order of preference. */
const QUERY_PARAMETERS = ["query", "q", "search", "search_query", "pattern", "term", "terms", "keywords", "keyword", "text", "question"];
/** Words in a tool's name or description that say it retrieves. */
const SEARCH_WORDS = /search|grep|find|recall|retriev|look ?up|query|match/i;

interface Parameters {
  properties: Record<string, { type?: unknown; default?: unknown }>;
  required: string[];
}

function parametersOf(tool: ToolSchema): Parameters {
  const schema = (tool.parameters ?? {}) as { properties?: unknown; required?: unknown };
  const properties = typeof schema.properties === "object" && schema.properties !== null ? (schema.properties as Parameters["properties"]) : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === "string") : [];
  return { properties, required };
}

const isString = (property: { type?: unknown } | undefined) =>
  property !== undefined && (property.type === "string" || (Array.isArray(property.type) && property.type.includes("string")));

const stringParameters = (parameters: Parameters) => Object.keys(parameters.properties).filter((name) => isString(parameters.properties[name]));

/** The parameter a query goes in: the only string one, else a query-like name, else the only required string. */
function queryParameter(parameters: Parameters): string | null {
  const strings = stringParameters(parameters);
  if (strings.length === 1) return strings[0]!;
  const named = QUERY_PARAMETERS.find((name) => strings.includes(name));
  if (named !== undefined) return named;
  const requiredStrings = strings.filter((name) => parameters.required.includes(name));
  return requiredStrings.length === 1 ? requiredStrings[0]! : null;
}

/** Required arguments other than the query, from their defaults; null when one has none. */
function fixedArguments(parameters: Parameters, query: string): Record<string, unknown> | null {
  const fixed: Record<string, unknown> = {};
  for (const name of parameters.required) {
    if (name === query) continue;
    const property = parameters.properties[name];
    if (property === undefined || !("default" in property)) return null;
    fixed[name] = property.default;
  }
  return fixed;
}

const signature = (tool: ToolSchema) => {
  const strings = stringParameters(parametersOf(tool));
  return `${tool.name}(${strings.join(", ")})`;
};

export function chooseSearchTool(tools: readonly ToolSchema[], hint: SearchToolHint | null): SearchToolChoice {
  if (hint !== null) return hinted(tools, hint);
  if (tools.length === 0) return { tool: null, why: "no tools" };
  let best: { tool: SearchTool; score: number } | null = null;
  for (const tool of tools) {
    const parameters = parametersOf(tool);
    const parameter = queryParameter(parameters);
    if (parameter === null) continue;
    const fixed = fixedArguments(parameters, parameter);
    if (fixed === null) continue;
    const score = (QUERY_PARAMETERS.includes(parameter) ? 2 : 0) + (SEARCH_WORDS.test(`${tool.name} ${tool.description ?? ""}`) ? 1 : 0);
    if (score > 0 && (best === null || score > best.score)) best = { tool: { name: tool.name, parameter, chosenBy: "schema", fixedArguments: fixed }, score };
  }
  if (best !== null) return { tool: best.tool, why: null };
  return {
    tool: null,
    why: `none of its tools (${tools.map(signature).join(", ")}) takes a query: no string parameter named like one (${QUERY_PARAMETERS.slice(0, 5).join(", ")}…) on a tool that says it searches; name the tool in plugin.yaml (ctxbench: {search_tool: NAME})`,
  };
}

function hinted(tools: readonly ToolSchema[], hint: SearchToolHint): SearchToolChoice {
  const tool = tools.find((candidate) => candidate.name === hint.tool);
  if (tool === undefined) {
    const offered = tools.length === 0 ? "it offers no tools" : `it offers ${tools.map((t) => t.name).join(", ")}`;
    return { tool: null, why: `plugin.yaml names the search tool "${hint.tool}", which the engine does not offer (${offered})` };
  }
  const parameters = parametersOf(tool);
  const parameter = hint.parameter ?? queryParameter(parameters);
  if (parameter === null || !isString(parameters.properties[parameter])) {
    const what = hint.parameter === null ? "no string parameter that reads as the query" : `no string parameter "${hint.parameter}"`;
    return { tool: null, why: `the search tool ${signature(tool)} named in plugin.yaml has ${what}` };
  }
  const fixed = fixedArguments(parameters, parameter);
  if (fixed === null) return { tool: null, why: `the search tool ${signature(tool)} requires arguments besides "${parameter}" that have no default` };
  return { tool: { name: tool.name, parameter, chosenBy: "hint", fixedArguments: fixed }, why: null };
}
