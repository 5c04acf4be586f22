export * from "./types.ts";
export * from "./context-engine.ts";
export * from "./persistence-fields.ts";
