/** The reports package: one result JSON, one reporter per format. */
export { reporters } from "./registry.ts";
export { REPORT_FORMATS, type RenderOptions, type ReportFormat, type Reporter } from "./reporter.ts";
export * from "./result.ts";
export { MergeError, mergeResults } from "./merge.ts";
export { collectRunInfo, gitSha, type RunInfoInput } from "./run-info.ts";
export { REPORT_FILE_NAMES, writeAllReports } from "./write-all.ts";
