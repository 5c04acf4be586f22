import { describe, expect, it } from "vitest";
import { parseXml } from "./xml-parse.ts";

describe("parseXml (the well-formedness check the JUnit test relies on)", () => {
  it("reads elements, attributes, entities and text", () => {
    const root = parseXml(`<?xml version="1.0"?>\n<a x="1 &amp; &lt;2&gt;" y='&#65;&#x42;'><b/>t&quot;<c>z</c></a>`);
    expect(root.attributes).toEqual({ x: "1 & <2>", y: "AB" });
    expect(root.children.map((child) => child.name)).toEqual(["b", "c"]);
    expect(root.text).toBe('t"');
  });

  it.each([
    ["<a><b></a></b>", /closes/],
    ["<a>1 < 2</a>", /expected a name/],
    ['<a x="1<2"/>', /'<' in character data/],
    ["<a>&nbsp;</a>", /unknown entity/],
    ["<a>x & y</a>", /unterminated entity/],
    ['<a x="1" x="2"/>', /duplicate attribute/],
    ["<a x=1/>", /quoted attribute/],
    ["<a>\u0007</a>", /not allowed/],
    ["<a/><b/>", /after the root/],
    ["<a>]]></a>", /']]>'/],
    ["<a>", /not closed/],
  ])("rejects %j", (text, message) => {
    expect(() => parseXml(text)).toThrow(message);
  });
});
