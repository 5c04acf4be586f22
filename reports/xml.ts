/** XML text and attribute escaping (XML 1.0): markup escaped, characters XML forbids made visible. */

/** Characters XML 1.0 cannot carry at all, even escaped: C0 controls other than tab, LF, CR; lone surrogates; U+FFFE/U+FFFF. */
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const visible = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

export function xmlText(text: string): string {
  return text.replace(FORBIDDEN, visible).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function xmlAttribute(text: string): string {
  return xmlText(text).replace(/"/g, "&quot;").replace(/'/g, "&apos;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

export function element(name: string, attributes: Record<string, string | number>, children: string | null = null): string {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${xmlAttribute(String(value))}"`)
    .join("");
  return children === null ? `<${name}${attrs}/>` : `<${name}${attrs}>${children}</${name}>`;
}
