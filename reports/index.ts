/** The reports package: one result JSON, one reporter per format, and where results go. */
export { allReporters, registerReporter, reporterFor, reportFormats, reporters } from "./registry.ts";
export { REPORT_FORMATS, type RenderOptions, type ReportFormat, type Reporter } from "./reporter.ts";
export { MergeError, mergeResultFiles, mergeResults } from "./merge.ts";
export { publishResult, writeAllReports, type PublishOptions, type PublishTarget } from "./publish.ts";
