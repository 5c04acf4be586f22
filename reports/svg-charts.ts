/**
 * Inline SVG charts drawn at render time: no script, no external resource. Every label passes
 * through escapeHtml. Coordinates are rounded to 0.1 px so the output is byte-stable.
 */
import { escapeHtml } from "./html-escape.ts";

/** Okabe–Ito: distinguishable with the common colour-vision deficiencies. */
export const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"];

const WIDTH = 680;
const HEIGHT = 320;
const MARGIN = { left: 70, right: 150, top: 16, bottom: 48 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;

const px = (value: number) => String(Math.round(value * 10) / 10);

export type ScaleKind = "linear" | "log";

interface Scale {
  at(value: number): number;
  ticks: number[];
}

function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

function scale(kind: ScaleKind, domain: [number, number], range: [number, number]): Scale {
  const [r0, r1] = range;
  if (kind === "log") {
    const lo = Math.log10(Math.max(domain[0], Number.MIN_VALUE));
    const hi = Math.log10(Math.max(domain[1], Number.MIN_VALUE));
    const low = Math.floor(lo);
    const high = Math.max(Math.ceil(hi), low + 1);
    const ticks: number[] = [];
    for (let power = low; power <= high; power += 1) ticks.push(10 ** power);
    return { at: (value) => r0 + ((Math.log10(value) - low) / (high - low)) * (r1 - r0), ticks };
  }
  const step = niceStep(domain[1] - domain[0] || 1, 5);
  const low = Math.floor(domain[0] / step) * step;
  const high = Math.max(Math.ceil(domain[1] / step) * step, low + step);
  const ticks: number[] = [];
  for (let tick = low; tick <= high + step / 2; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return { at: (value) => r0 + ((value - low) / (high - low)) * (r1 - r0), ticks };
}

/** The svg element: role img, a title, and a text alternative (desc) saying what the drawing shows. */
function frame(id: string, title: string, description: string, body: string[], height = HEIGHT): string {
  return [
    `<svg class="chart" data-chart="${escapeHtml(id)}" role="img" aria-label="${escapeHtml(title)}" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg">`,
    `<title>${escapeHtml(title)}</title>`,
    `<desc>${escapeHtml(description)}</desc>`,
    ...body,
    "</svg>",
  ].join("\n");
}

/** "lcm: 1,000 → 109k, 10,000 → 92k (2 points)": a line's points in words, the ends and the extremes when there are many. */
function seriesInWords(series: LineSeries, formatX: (value: number) => string, formatY: (value: number) => string): string {
  const point = ([x, y]: [number, number]) => `${formatX(x)} → ${formatY(y)}`;
  const { points } = series;
  if (points.length === 0) return `${series.name}: no points`;
  if (points.length <= 6) return `${series.name}: ${points.map(point).join(", ")}`;
  const ys = points.map(([, y]) => y);
  return `${series.name}: ${points.length} points from ${point(points[0]!)} to ${point(points.at(-1)!)}, lowest ${formatY(Math.min(...ys))}, highest ${formatY(Math.max(...ys))}`;
}

export function lineChartDescription(options: Pick<LineChartOptions, "xLabel" | "yLabel" | "series" | "formatX" | "formatY">): string {
  return `${options.yLabel} against ${options.xLabel}. ${options.series.map((series) => seriesInWords(series, options.formatX, options.formatY)).join("; ")}.`;
}

export function barChartDescription(options: Pick<BarChartOptions, "valueLabel" | "bars" | "formatValue">): string {
  const bar = (b: Bar) => `${b.label}: ${options.formatValue(b.value)}${b.low !== undefined && b.high !== undefined ? ` (${options.formatValue(b.low)}–${options.formatValue(b.high)})` : ""}`;
  return `${options.valueLabel}. ${options.bars.map(bar).join("; ")}.`;
}

function legend(entries: { name: string; color: string }[]): string[] {
  return entries.flatMap(({ name, color }, index) => {
    const y = MARGIN.top + 8 + index * 20;
    const x = WIDTH - MARGIN.right + 16;
    return [
      `<rect class="swatch" x="${x}" y="${y - 8}" width="12" height="12" fill="${color}"/>`,
      `<text x="${x + 18}" y="${y + 2}" class="legend">${escapeHtml(name.length > 18 ? `${name.slice(0, 17)}…` : name)}</text>`,
    ];
  });
}

export interface LineSeries {
  name: string;
  points: [number, number][];
  /** Defaults to the palette colour of the series' position. */
  color?: string;
}

export interface LineChartOptions {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  xScale: ScaleKind;
  yScale: ScaleKind;
  /** Fixed y domain (e.g. [0, 1] for ratios); otherwise the data's. */
  yDomain?: [number, number];
  formatX(value: number): string;
  formatY(value: number): string;
  series: LineSeries[];
  /** Draw a dot at every point (useful when there are few). */
  markers?: boolean;
}

export function lineChart(options: LineChartOptions): string {
  const all = options.series.flatMap((series) => series.points).filter(([x, y]) => (options.xScale === "log" ? x > 0 : true) && (options.yScale === "log" ? y > 0 : true));
  if (all.length === 0) return frame(options.id, options.title, "No data to draw.", [`<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle">no data</text>`]);
  const xs = all.map(([x]) => x);
  const ys = all.map(([, y]) => y);
  const x = scale(options.xScale, [Math.min(...xs), Math.max(...xs)], [MARGIN.left, MARGIN.left + PLOT_W]);
  const y = scale(options.yScale, options.yDomain ?? [options.yScale === "linear" ? Math.min(0, ...ys) : Math.min(...ys), Math.max(...ys)], [MARGIN.top + PLOT_H, MARGIN.top]);
  const body: string[] = [
    `<rect class="plot" x="${MARGIN.left}" y="${MARGIN.top}" width="${PLOT_W}" height="${PLOT_H}"/>`,
    ...y.ticks.map((tick) => `<line class="grid" x1="${MARGIN.left}" x2="${MARGIN.left + PLOT_W}" y1="${px(y.at(tick))}" y2="${px(y.at(tick))}"/><text class="tick" x="${MARGIN.left - 6}" y="${px(y.at(tick) + 4)}" text-anchor="end">${escapeHtml(options.formatY(tick))}</text>`),
    ...x.ticks.map((tick) => `<line class="grid" y1="${MARGIN.top}" y2="${MARGIN.top + PLOT_H}" x1="${px(x.at(tick))}" x2="${px(x.at(tick))}"/><text class="tick" y="${MARGIN.top + PLOT_H + 16}" x="${px(x.at(tick))}" text-anchor="middle">${escapeHtml(options.formatX(tick))}</text>`),
    `<text class="axis" x="${MARGIN.left + PLOT_W / 2}" y="${HEIGHT - 8}" text-anchor="middle">${escapeHtml(options.xLabel)}</text>`,
    `<text class="axis" transform="translate(16 ${MARGIN.top + PLOT_H / 2}) rotate(-90)" text-anchor="middle">${escapeHtml(options.yLabel)}</text>`,
  ];
  options.series.forEach((series, index) => {
    const color = series.color ?? PALETTE[index % PALETTE.length];
    const points = series.points.filter(([px_, py]) => (options.xScale === "log" ? px_ > 0 : true) && (options.yScale === "log" ? py > 0 : true));
    if (points.length === 0) return;
    const d = points.map(([px_, py], at) => `${at === 0 ? "M" : "L"}${px(x.at(px_))} ${px(y.at(py))}`).join(" ");
    body.push(`<path class="series" data-series="${escapeHtml(series.name)}" d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`);
    if (options.markers) for (const [px_, py] of points) body.push(`<circle cx="${px(x.at(px_))}" cy="${px(y.at(py))}" r="3.5" fill="${color}"/>`);
  });
  body.push(...legend(options.series.map((series, index) => ({ name: series.name, color: series.color ?? PALETTE[index % PALETTE.length]! }))));
  return frame(options.id, options.title, lineChartDescription(options), body);
}

export interface Bar {
  label: string;
  value: number;
  color?: string;
  low?: number;
  high?: number;
}

export interface BarChartOptions {
  id: string;
  title: string;
  valueLabel: string;
  formatValue(value: number): string;
  bars: Bar[];
  /** A vertical reference line, e.g. ratio 1 = no engine. */
  reference?: { value: number; label: string };
}

/** Horizontal bars with optional interval whiskers. */
export function barChart(options: BarChartOptions): string {
  const rowHeight = 28;
  const height = MARGIN.top + MARGIN.bottom + Math.max(1, options.bars.length) * rowHeight;
  const labelWidth = 170;
  const left = labelWidth;
  const width = WIDTH - left - 40;
  const maxValue = Math.max(options.reference?.value ?? 0, ...options.bars.map((bar) => Math.max(bar.value, bar.high ?? 0)));
  const x = scale("linear", [0, maxValue || 1], [left, left + width]);
  const body: string[] = [
    ...x.ticks.map((tick) => `<line class="grid" y1="${MARGIN.top}" y2="${height - MARGIN.bottom}" x1="${px(x.at(tick))}" x2="${px(x.at(tick))}"/><text class="tick" y="${height - MARGIN.bottom + 16}" x="${px(x.at(tick))}" text-anchor="middle">${escapeHtml(options.formatValue(tick))}</text>`),
    `<text class="axis" x="${left + width / 2}" y="${height - 8}" text-anchor="middle">${escapeHtml(options.valueLabel)}</text>`,
  ];
  options.bars.forEach((bar, index) => {
    const top = MARGIN.top + index * rowHeight + 5;
    const barHeight = rowHeight - 10;
    const label = bar.label.length > 24 ? `${bar.label.slice(0, 23)}…` : bar.label;
    body.push(
      `<text class="tick" x="${left - 8}" y="${px(top + barHeight / 2 + 4)}" text-anchor="end">${escapeHtml(label)}</text>`,
      `<rect class="bar" x="${left}" y="${top}" width="${px(Math.max(0.5, x.at(bar.value) - left))}" height="${barHeight}" fill="${bar.color ?? PALETTE[index % PALETTE.length]}"><title>${escapeHtml(`${bar.label}: ${options.formatValue(bar.value)}`)}</title></rect>`,
    );
    if (bar.low !== undefined && bar.high !== undefined) {
      const mid = px(top + barHeight / 2);
      const [lowX, highX] = [px(x.at(bar.low)), px(x.at(bar.high))];
      body.push(
        `<path class="whisker" d="M${lowX} ${mid} L${highX} ${mid} M${lowX} ${px(top + 3)} L${lowX} ${px(top + barHeight - 3)} M${highX} ${px(top + 3)} L${highX} ${px(top + barHeight - 3)}" stroke="#222" stroke-width="1.5" fill="none"/>`,
      );
    }
  });
  if (options.reference) {
    const at = px(x.at(options.reference.value));
    body.push(`<line class="reference" x1="${at}" x2="${at}" y1="${MARGIN.top - 4}" y2="${height - MARGIN.bottom}" stroke="#444" stroke-dasharray="4 3"/>`);
  }
  return frame(options.id, options.title, barChartDescription(options), body, height);
}
