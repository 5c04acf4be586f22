// The accessibility audit's page-side code (see accessibility-audit.ts): a plain script evaluated
// in the page by playwright, so it is written in JavaScript the browser runs as it is.
(() => {
  const violations = [];
  const add = (rule, element, detail) => violations.push({ rule, where: element ? pathOf(element) : "document", detail });

  function pathOf(element) {
    const parts = [];
    for (let node = element; node && parts.length < 4; node = node.parentElement) {
      const id = node.id ? `#${node.id}` : "";
      const cls = node.getAttribute("class") ? `.${(node.getAttribute("class") ?? "").trim().split(/\s+/).join(".")}` : "";
      parts.unshift(`${node.tagName.toLowerCase()}${id}${cls}`);
      if (id) break;
    }
    return parts.join(" > ");
  }

  const text = (element) => (element?.textContent ?? "").replace(/\s+/g, " ").trim();

  // ---- document ----
  if (!document.documentElement.getAttribute("lang")) add("document-language", document.documentElement, "<html> has no lang");
  if (text(document.querySelector("head > title")) === "") add("document-title", null, "no <title>");
  const headings = [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")];
  const h1s = headings.filter((h) => h.tagName === "H1").length;
  if (h1s !== 1) add("heading-order", null, `${h1s} <h1> elements; a page has one`);
  let previous = 0;
  for (const heading of headings) {
    const level = Number(heading.tagName.slice(1));
    if (previous > 0 && level > previous + 1) add("heading-order", heading, `h${level} "${text(heading).slice(0, 40)}" follows h${previous}`);
    previous = level;
  }
  const seen = new Map();
  for (const element of document.querySelectorAll("[id]")) seen.set(element.id, (seen.get(element.id) ?? 0) + 1);
  for (const [id, count] of seen) if (count > 1) add("duplicate-id", document.getElementById(id), `id "${id}" is used ${count} times`);

  // ---- tables ----
  for (const table of document.querySelectorAll("table")) {
    const named = text(table.querySelector(":scope > caption")) !== "" || table.getAttribute("aria-label") || table.getAttribute("aria-labelledby");
    if (!named) add("table-name", table, "a table without a caption or aria-label");
    const headers = [...table.querySelectorAll("th")];
    if (headers.length === 0) add("table-headers", table, "a table without header cells");
    for (const th of headers) {
      const scope = th.getAttribute("scope");
      if (scope !== "col" && scope !== "row" && scope !== "colgroup" && scope !== "rowgroup") add("table-headers", th, `header "${text(th).slice(0, 30)}" has no scope`);
    }
  }

  // ---- charts and images ----
  for (const svg of document.querySelectorAll("svg")) {
    if (svg.getAttribute("role") !== "img") add("chart-role", svg, 'an svg without role="img"');
    const title = svg.querySelector(":scope > title");
    if (text(title) === "" && !svg.getAttribute("aria-label")) add("chart-title", svg, "an svg without a title");
    const describedBy = svg.getAttribute("aria-describedby");
    const description = text(svg.querySelector(":scope > desc")) || (describedBy ? text(document.getElementById(describedBy)) : "");
    if (description === "") add("chart-description", svg, "an svg without a text alternative (desc or aria-describedby)");
  }
  for (const img of document.querySelectorAll("img")) if (!img.hasAttribute("alt")) add("image-alt", img, "an img without alt");

  // ---- links ----
  for (const link of document.querySelectorAll("a[href]")) {
    if (text(link) === "" && !link.getAttribute("aria-label")) add("link-name", link, "a link without text");
    const href = link.getAttribute("href") ?? "";
    if (href.startsWith("#") && href.length > 1 && document.getElementById(decodeURIComponent(href.slice(1))) === null) add("link-target", link, `points at ${href}, which does not exist`);
  }

  // ---- contrast ----
  const parse = (color) => {
    const match = color.match(/rgba?\(([^)]+)\)/);
    if (!match) return null;
    const parts = match[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const luminance = ([r, g, b]) => {
    const channel = (value) => {
      const s = value / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const blend = (top, bottom) => {
    const a = top[3];
    return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
  };
  /** The opaque colour behind an element: its ancestors' backgrounds composed, over white. */
  const backgroundOf = (element) => {
    const layers = [];
    for (let node = element; node; node = node.parentElement) {
      if (node instanceof SVGElement && node.tagName.toLowerCase() !== "svg") continue;
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color && color[3] > 0) {
        layers.push(color);
        if (color[3] >= 1) break;
      }
    }
    return layers.reduceRight((below, layer) => blend(layer, below), [255, 255, 255, 1]);
  };
  const checked = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || checked.has(element) || (node.textContent ?? "").trim() === "") continue;
    checked.add(element);
    const style = getComputedStyle(element);
    if (style.visibility === "hidden" || style.display === "none" || element.closest("title, desc, style, [hidden]")) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 && box.height === 0 && !(element instanceof SVGElement)) continue;
    const isSvgText = element instanceof SVGElement;
    const foreground = parse(isSvgText ? style.fill : style.color);
    if (!foreground) continue;
    const background = backgroundOf(element);
    const shown = blend(foreground, background);
    const [light, dark] = [luminance(shown), luminance(background)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const needed = large ? 3 : 4.5;
    if (ratio < needed) add("contrast", element, `"${text(element).slice(0, 30)}": ${ratio.toFixed(2)}:1, needs ${needed}:1`);
  }
  return violations;
})();
