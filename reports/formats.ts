/**
 * What `--format` and `--out DIR` know of the reporters without loading one: each built-in
 * reporter's name, file and whether it prints (its renderer stays in its own file, loaded by
 * registry.ts only when something is rendered), and the reporters added at run time. The CLI
 * builds its options from here, so a refused command never loads the renderers; a test holds
 * BUILT_IN_FORMATS equal to the reporters' own fields.
 */
import type { Reporter } from "./reporter.ts";

export type ReporterShape = Pick<Reporter, "format" | "fileName" | "printable">;

/** The built-in reporters' shapes, in registry.ts's order. */
export const BUILT_IN_FORMATS: readonly ReporterShape[] = [
  { format: "terminal", fileName: "report.txt", printable: true },
  { format: "markdown", fileName: "report.md", printable: true },
  { format: "html", fileName: "report.html", printable: false },
  { format: "json", fileName: "result.json", printable: true },
  { format: "junit", fileName: "junit.xml", printable: true },
  { format: "tap", fileName: "report.tap", printable: true },
  { format: "github-summary", fileName: null, printable: false },
];

/** Reporters added by registerReporter, in the order added. */
export const addedReporters: Reporter[] = [];

function shapes(): readonly ReporterShape[] {
  return [...BUILT_IN_FORMATS, ...addedReporters];
}

/** The formats `--format` offers: every reporter that prints (with `pages`, whole pages such as HTML too). */
export function reportFormats(options: { pages?: boolean } = {}): string[] {
  return shapes()
    .filter((reporter) => reporter.printable || (options.pages === true && reporter.fileName !== null))
    .map((reporter) => reporter.format);
}

/**
 * Registers one more reporter (a test's throwaway one, say) for as long as the returned function
 * is not called: `--format`, `--out DIR` and the environment's targets see it like the built-in ones.
 */
export function registerReporter(reporter: Reporter): () => void {
  if (shapes().some((candidate) => candidate.format === reporter.format)) throw new Error(`a reporter for "${reporter.format}" is already registered`);
  addedReporters.push(reporter);
  return () => {
    const index = addedReporters.indexOf(reporter);
    if (index >= 0) addedReporters.splice(index, 1);
  };
}
