/** Text from a result (engine names, messages, transcript evidence) made inert inside HTML and SVG. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/\u0000/g, "\ufffd");
}
