/** Number formatting shared by the human-facing formats; fixed precision so output is byte-stable. */

const trim = (text: string) => (text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text);

/** Three significant digits, no exponent for ordinary magnitudes. */
export function sig(value: number, digits = 3): string {
  if (value === 0 || !Number.isFinite(value)) return String(value);
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return trim(value.toFixed(Math.min(decimals, 6)));
}

export function withThousands(value: number): string {
  const [whole, fraction] = Math.round(value).toString().split(".");
  return (whole ?? "").replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (fraction ? `.${fraction}` : "");
}

export const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

export const times = (ratio: number) => `${ratio.toFixed(3)}×`;

export function duration(ms: number): string {
  if (ms < 1) return `${sig(ms * 1000)} µs`;
  if (ms < 1000) return `${sig(ms)} ms`;
  return `${sig(ms / 1000)} s`;
}

export function nanoseconds(ns: number): string {
  if (ns < 1000) return `${sig(ns)} ns`;
  if (ns < 1e6) return `${sig(ns / 1000)} µs`;
  return `${sig(ns / 1e6)} ms`;
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
