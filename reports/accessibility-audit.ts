import { readFileSync } from "node:fs";

/**
 * An accessibility audit of a rendered page, run inside the browser (headless Chromium in the
 * HTML report's test): the WCAG checks a self-contained report can fail. Pass `AUDIT_SCRIPT` to
 * `page.evaluate`; it returns the violations, an empty list when the page passes. The page-side
 * code is accessibility-audit.page.js.
 *
 * - contrast: every visible text against its effective background, ≥ 4.5:1 (≥ 3:1 for large text);
 * - tables: every table has an accessible name (a caption) and header cells, each with a scope;
 * - charts: every svg has role="img", a title and a text alternative (a desc);
 * - images: every img has alt text;
 * - links: every link has text, and an in-page link points at an element that exists;
 * - document: a language, a title, one h1, headings that do not skip a level, unique ids.
 */

export interface AccessibilityViolation {
  rule: "contrast" | "table-name" | "table-headers" | "chart-role" | "chart-title" | "chart-description" | "image-alt" | "link-name" | "link-target" | "document-language" | "document-title" | "heading-order" | "duplicate-id";
  /** Where: a short path to the element. */
  where: string;
  detail: string;
}

/** The audit as a script for `page.evaluate`: an expression that runs it and yields the violations. */
export const AUDIT_SCRIPT = readFileSync(new URL("./accessibility-audit.page.js", import.meta.url), "utf8");
