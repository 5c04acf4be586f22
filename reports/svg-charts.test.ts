import { describe, expect, it } from "vitest";
import { barChart, lineChart } from "./svg-charts.ts";

const base = { id: "t", title: "T", xLabel: "x", yLabel: "y", formatX: String, formatY: String };

/** Coordinates of the first path of a chart. */
const pathPoints = (svg: string) =>
  [...(/ d="([^"]+)"/.exec(svg.slice(svg.indexOf('class="series"')))?.[1] ?? "").matchAll(/[ML]([\d.]+) ([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);

describe("svg charts", () => {
  it("places points of a power law on a straight line on log–log axes", () => {
    const svg = lineChart({ ...base, xScale: "log", yScale: "log", series: [{ name: "a", points: [[1000, 5], [10000, 50], [100000, 500]] }] });
    const [p0, p1, p2] = pathPoints(svg) as [number[], number[], number[]];
    const slope = (a: number[], b: number[]) => (b[1]! - a[1]!) / (b[0]! - a[0]!);
    expect(slope(p0, p1)).toBeCloseTo(slope(p1, p2), 2);
    expect(svg).toContain(">1000<");
    expect(svg).toContain(">100000<");
  });

  it("draws one path per series and a legend entry for each, names escaped", () => {
    const svg = lineChart({ ...base, xScale: "linear", yScale: "linear", yDomain: [0, 1], series: [{ name: "<b>x</b>", points: [[1, 0.2], [2, 0.9]] }, { name: "y", points: [[1, 0.5], [2, 0.4]] }] });
    expect(svg.match(/class="series"/g)).toHaveLength(2);
    expect(svg.match(/class="swatch"/g)).toHaveLength(2);
    expect(svg).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(svg).not.toContain("<b>");
  });

  it("says so instead of drawing when there is nothing to draw", () => {
    expect(lineChart({ ...base, xScale: "log", yScale: "log", series: [{ name: "a", points: [[0, 0]] }] })).toContain("no data");
  });

  it("draws bars proportional to their values, with whiskers only where an interval is given", () => {
    const svg = barChart({ id: "b", title: "B", valueLabel: "v", formatValue: String, bars: [{ label: "one", value: 1 }, { label: "two", value: 2, low: 1.8, high: 2.2 }] });
    const widths = [...svg.matchAll(/class="bar"[^>]* width="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(widths[1]! / widths[0]!).toBeCloseTo(2, 2);
    expect(svg.match(/class="whisker"/g)).toHaveLength(1);
  });
});

describe("a chart's text alternative", () => {
  it("says in words what a line chart shows: every point of a short series, the ends and extremes of a long one", () => {
    const long = Array.from({ length: 40 }, (_, turn): [number, number] => [turn + 1, turn === 0 ? 0 : turn === 20 ? 0.2 : 0.9]);
    const svg = lineChart({ ...base, xScale: "linear", yScale: "linear", series: [{ name: "lcm", points: [[1000, 5], [10000, 50]] }, { name: "truncate", points: long }] });
    const desc = /<desc>([^<]*)<\/desc>/.exec(svg)?.[1];
    expect(desc).toBe("y against x. lcm: 1000 → 5, 10000 → 50; truncate: 40 points from 1 → 0 to 40 → 0.9, lowest 0, highest 0.9.");
  });

  it("gives every bar its value and interval", () => {
    const svg = barChart({ id: "b", title: "B", valueLabel: "× no engine", formatValue: (v) => `${v}×`, bars: [{ label: "one", value: 1 }, { label: "<two>", value: 2, low: 1.8, high: 2.2 }] });
    expect(/<desc>([^<]*)<\/desc>/.exec(svg)?.[1]).toBe("× no engine. one: 1×; &lt;two&gt;: 2× (1.8×–2.2×).");
  });
});
