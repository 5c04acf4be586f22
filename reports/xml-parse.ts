/**
 * A small, strict XML 1.0 reader used to prove the JUnit output is well-formed: it walks the text
 * character by character (no regular expressions), checks names, attribute quoting, entity
 * references, forbidden characters and element nesting, and returns the element tree.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export class XmlSyntaxError extends Error {
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
  }
}

const isNameStart = (char: string) => (char >= "a" && char <= "z") || (char >= "A" && char <= "Z") || char === "_" || char === ":" || char > "\u00bf";
const isNameChar = (char: string) => isNameStart(char) || (char >= "0" && char <= "9") || char === "-" || char === ".";
const isSpace = (char: string) => char === " " || char === "\t" || char === "\n" || char === "\r";

function isAllowedChar(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000;
}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function parseXml(text: string): XmlElement {
  let at = 0;
  const fail = (message: string): never => {
    throw new XmlSyntaxError(message, at);
  };
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (!isAllowedChar(code)) fail(`character U+${code.toString(16)} is not allowed in XML`);
  }
  const startsWith = (token: string) => text.startsWith(token, at);
  const skipSpace = () => {
    while (at < text.length && isSpace(text[at]!)) at += 1;
  };
  const readName = (): string => {
    const start = at;
    if (!isNameStart(text[at] ?? "")) fail("expected a name");
    while (at < text.length && isNameChar(text[at]!)) at += 1;
    return text.slice(start, at);
  };
  const readEntity = (): string => {
    at += 1; // "&"
    const start = at;
    while (at < text.length && text[at] !== ";") {
      if (isSpace(text[at]!) || text[at] === "&" || text[at] === "<") fail("unterminated entity reference");
      at += 1;
    }
    if (at >= text.length) fail("unterminated entity reference");
    const name = text.slice(start, at);
    at += 1; // ";"
    if (name.startsWith("#x")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
    const value = NAMED_ENTITIES[name];
    if (value === undefined) fail(`unknown entity &${name};`);
    return value!;
  };
  const readCharacters = (stop: string): string => {
    let value = "";
    while (at < text.length && text[at] !== stop) {
      const char = text[at]!;
      if (char === "<") fail("'<' in character data");
      if (char === "&") value += readEntity();
      else {
        if (stop === "<" && startsWith("]]>")) fail("']]>' in character data");
        value += char;
        at += 1;
      }
    }
    return value;
  };

  if (startsWith("<?xml")) {
    const end = text.indexOf("?>", at);
    if (end < 0) fail("unterminated XML declaration");
    at = end + 2;
  }
  skipSpace();

  const readElement = (): XmlElement => {
    if (!startsWith("<")) fail("expected '<'");
    at += 1;
    const element: XmlElement = { name: readName(), attributes: {}, children: [], text: "" };
    for (;;) {
      const hadSpace = at < text.length && isSpace(text[at]!);
      skipSpace();
      if (startsWith("/>")) {
        at += 2;
        return element;
      }
      if (startsWith(">")) {
        at += 1;
        break;
      }
      if (!hadSpace) fail("expected whitespace before an attribute");
      const name = readName();
      if (name in element.attributes) fail(`duplicate attribute ${name}`);
      skipSpace();
      if (!startsWith("=")) fail("expected '='");
      at += 1;
      skipSpace();
      const quote = text[at];
      if (quote !== '"' && quote !== "'") fail("expected a quoted attribute value");
      at += 1;
      element.attributes[name] = readCharacters(quote!);
      if (at >= text.length) fail("unterminated attribute value");
      at += 1;
    }
    for (;;) {
      element.text += readCharacters("<");
      if (at >= text.length) fail(`element <${element.name}> is not closed`);
      if (startsWith("</")) {
        at += 2;
        const closing = readName();
        if (closing !== element.name) fail(`</${closing}> closes <${element.name}>`);
        skipSpace();
        if (!startsWith(">")) fail("expected '>'");
        at += 1;
        return element;
      }
      if (startsWith("<!--") || startsWith("<![CDATA[") || startsWith("<?")) fail("comments, CDATA and processing instructions are not expected here");
      element.children.push(readElement());
    }
  };

  const root = readElement();
  skipSpace();
  if (at !== text.length) fail("content after the root element");
  return root;
}
