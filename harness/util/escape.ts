/**
 * The two escapes for text ctxbench did not write itself (plugin.yaml fields, engine names and
 * messages, file contents): one for a terminal, one for Markdown. Everything that prints such
 * text goes through one of them, so an ESC, a NUL or a newline in it is shown, never obeyed.
 */

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function unicodeEscape(char: string): string {
  return NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * C0 and C1 controls, DEL, and the bidirectional overrides and isolates (which reorder what a
 * terminal shows: "Trojan source"), shown as escapes. The result is one line.
 */
const TERMINAL_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function escapeTerminal(text: string): string {
  return text.replace(TERMINAL_UNSAFE, unicodeEscape);
}

/**
 * Text shown literally inside a Markdown line or table cell: HTML and Markdown markup, pipes and
 * backslashes neutralised, newlines folded into spaces (no text can start a heading, a list or
 * a raw HTML block), other controls shown as escapes.
 */
export function escapeMarkdownInline(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    // One pass: escaping pipes before backslashes would turn \| into \\| and reopen the cell.
    .replace(/([\\`*_[\]#~!|])/g, "\\$1")
    .replace(/[\r\n\u2028\u2029]+/g, " ")
    .replace(TERMINAL_UNSAFE, unicodeEscape);
}
