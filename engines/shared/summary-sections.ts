/**
 * The structured summary format of the bundled summarizer: `## Heading` lines, each followed by
 * `- item` lines. Parsing it back lets a later pass update a summary instead of stacking a new one.
 */

export type SectionKey = "asks" | "actions" | "files" | "errors" | "decisions" | "facts" | "notes";

export const SECTION_ORDER: readonly SectionKey[] = ["asks", "actions", "files", "errors", "decisions", "facts", "notes"];

export const SECTION_HEADINGS: Readonly<Record<SectionKey, string>> = {
  asks: "User asks",
  actions: "Actions taken",
  files: "Files touched",
  errors: "Errors",
  decisions: "Decisions",
  facts: "Key facts",
  notes: "Earlier notes",
};

export const FOCUS_HEADING_PREFIX = "Focus: ";
/** Marks the line that says how many items were left out; never read back as an item. */
export const OMITTED_MARK = "…";

export interface ParsedSummary {
  sections: Map<SectionKey, string[]>;
  focusItems: string[];
}

const HEADING_TO_KEY = new Map<string, SectionKey>(SECTION_ORDER.map((key) => [SECTION_HEADINGS[key].toLowerCase(), key]));

/**
 * Items of a summary in this format. Text that is not in it (a summary written by another
 * summarizer or by a person) is kept line by line as notes, so nothing is silently lost.
 */
export function parseSummary(text: string): ParsedSummary {
  const sections = new Map<SectionKey, string[]>();
  const focusItems: string[] = [];
  let current: string[] | null = null;
  const push = (key: SectionKey, item: string) => {
    const list = sections.get(key) ?? [];
    list.push(item);
    sections.set(key, list);
  };
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("## ")) {
      const heading = line.slice(3).trim();
      if (heading.startsWith(FOCUS_HEADING_PREFIX)) {
        current = focusItems;
        continue;
      }
      const key = HEADING_TO_KEY.get(heading.toLowerCase()) ?? "notes";
      const list = sections.get(key) ?? [];
      sections.set(key, list);
      current = list;
      continue;
    }
    if (line.startsWith(`- ${OMITTED_MARK}`)) continue;
    const item = line.startsWith("- ") ? line.slice(2).trim() : line;
    if (item === "") continue;
    if (current) current.push(item);
    else push("notes", item);
  }
  return { sections, focusItems };
}

export interface RenderedSection {
  heading: string;
  items: string[];
  /** Were items left out for lack of room? Then a last `- … earlier items omitted` line says so. */
  omitted: boolean;
}

/** `## Heading` + `- item` lines. */
export function renderSection(section: RenderedSection): string {
  const lines = [`## ${section.heading}`, ...section.items.map((item) => `- ${item}`)];
  if (section.omitted) lines.push(omittedLine());
  return lines.join("\n");
}

export function omittedLine(): string {
  return `- ${OMITTED_MARK} earlier items omitted`;
}
