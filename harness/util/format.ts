/**
 * Number formatting for everything people read (tables, chart axes, notes); fixed precision so
 * output is byte-stable. Bench suites format their own tables with it, reports their own text.
 */

/** A figure with its 95 % interval (the bench's Estimate, by shape). */
export interface Estimate {
  value: number;
  low: number;
  high: number;
}

const trim = (text: string) => (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);

/** Three significant digits, no exponent for ordinary magnitudes. */
export function sig(value: number, digits = 3): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  if (decimals === 0) return withThousands(Number(value.toPrecision(Math.max(1, digits))));
  return trim(value.toFixed(Math.min(decimals, 6)));
}

export function withThousands(value: number): string {
  const sign = value < 0 ? "-" : "";
  const whole = Math.round(Math.abs(value)).toString();
  return sign + whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A share of a whole (0..1). */
export const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** A ratio of two quantities (input ÷ output tokens, cost ÷ a baseline's cost). */
export const times = (ratio: number, digits = 3) => `${sig(ratio, digits)}×`;

const TIME_UNITS: [number, string][] = [
  [1e9, "s"],
  [1e6, "ms"],
  [1e3, "µs"],
  [1, "ns"],
];

/** The unit a time in ns reads best in, and its scale. */
function timeUnit(ns: number): [number, string] {
  const magnitude = Math.abs(ns);
  return TIME_UNITS.find(([scale]) => magnitude >= scale) ?? [1, "ns"];
}

/** A time in nanoseconds, in ns, µs, ms or s. */
export function nanoseconds(ns: number, digits = 3): string {
  const [scale, unit] = timeUnit(ns);
  return `${sig(ns / scale, digits)} ${unit}`;
}

/** A time in milliseconds, in ns, µs, ms or s. */
export const duration = (ms: number, digits = 3) => nanoseconds(ms * 1e6, digits);

/**
 * Decimals an estimate deserves: the last digit shown is the order of its interval's half-width
 * (negative: rounded to tens, hundreds…), with at least two and at most six significant digits
 * of the value. An exact figure (no width) gets three significant digits.
 */
export function decimalsFor(estimate: Estimate): number {
  const value = Math.abs(estimate.value);
  const magnitude = value > 0 && Number.isFinite(value) ? Math.floor(Math.log10(value)) : 0;
  const halfWidth = (estimate.high - estimate.low) / 2;
  if (!(halfWidth > 0) || !Number.isFinite(halfWidth)) return Math.max(0, 2 - magnitude);
  const decimals = -Math.floor(Math.log10(halfWidth));
  return Math.min(Math.max(decimals, 1 - magnitude), 5 - magnitude, 9);
}

/** A number rounded at `decimals` (negative: to tens, hundreds…), with thousands separators. */
export function fixedAt(value: number, decimals: number): string {
  if (decimals <= 0) {
    const step = 10 ** -decimals;
    return withThousands(Math.round(value / step) * step);
  }
  const [whole, fraction] = Math.abs(value).toFixed(decimals).split(".");
  return `${value < 0 && Number(`${whole}.${fraction}`) !== 0 ? "-" : ""}${withThousands(Number(whole))}.${fraction}`;
}

/** A figure's unit: a time ("ns", "ms": shown in whichever reads best), a ratio ("×"), or any other label ("rows/s"). */
function scaleFor(unit: string, value: number): { scale: number; suffix: string } {
  if (unit === "ns" || unit === "ms") {
    const [scale, label] = timeUnit(unit === "ms" ? value * 1e6 : value);
    return { scale: unit === "ms" ? scale / 1e6 : scale, suffix: ` ${label}` };
  }
  if (unit === "×") return { scale: 1, suffix: "×" };
  return { scale: 1, suffix: unit ? ` ${unit}` : "" };
}

/** "7.9 ms (7.7–8.1)", "2.16× (2.15–2.17)", "189,000 rows/s (185,000–192,000)": an estimate to the digits its interval supports. */
export function withInterval(estimate: Estimate, unit: string): string {
  const { scale, suffix } = scaleFor(unit, estimate.value);
  const scaled = { value: estimate.value / scale, low: estimate.low / scale, high: estimate.high / scale };
  const decimals = decimalsFor(scaled);
  return `${fixedAt(scaled.value, decimals)}${suffix} (${fixedAt(scaled.low, decimals)}–${fixedAt(scaled.high, decimals)})`;
}

/** An exact figure in the same units: "10 ms", "1.01×", "150,000 rows/s". */
export function exact(value: number, unit: string): string {
  const { scale, suffix } = scaleFor(unit, value);
  return `${sig(value / scale, 4)}${suffix}`;
}

/** A signed difference in ns ("+0.63 ns (−0.40 to +1.70)"), for a stage whose baseline costs a few ns. */
export function addedNanoseconds(estimate: Estimate): string {
  const [scale, unit] = timeUnit(Math.max(Math.abs(estimate.value), Math.abs(estimate.high), Math.abs(estimate.low)));
  const scaled = { value: estimate.value / scale, low: estimate.low / scale, high: estimate.high / scale };
  const decimals = Math.max(0, decimalsFor({ ...scaled, value: Math.max(Math.abs(scaled.low), Math.abs(scaled.high)) }));
  const signed = (value: number) => `${value < 0 ? "−" : "+"}${fixedAt(Math.abs(value), decimals)}`;
  return `${signed(scaled.value)} ${unit} (${signed(scaled.low)} to ${signed(scaled.high)})`;
}

export function bytes(value: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let scaled = value;
  let unit = 0;
  while (scaled >= 1024 && unit < units.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  return `${sig(scaled)} ${units[unit]}`;
}

/** 1,500,000 → "1.5M": axis ticks of a log scale stay inside the margin. */
export function compactCount(value: number): string {
  if (value >= 1e9) return `${sig(value / 1e9)}G`;
  if (value >= 1e6) return `${sig(value / 1e6)}M`;
  if (value >= 1e3) return `${sig(value / 1e3)}k`;
  return sig(value);
}

/** The named formats a chart's axes use: charts are data, so they name a format instead of holding a function. */
export const NUMBER_FORMATS = {
  /** 12,345 */
  thousands: withThousands,
  /** 1.5M */
  compact: compactCount,
  /** 7 */
  plain: (value: number) => String(value),
  /** 50 %, 12.5 % */
  percent: (value: number) => percent(value).replace(".0 %", " %"),
  /** 1.05× */
  times: (value: number) => `${sig(value)}×`,
} as const satisfies Record<string, (value: number) => string>;

export type NumberFormat = keyof typeof NUMBER_FORMATS;
