/** Small statistics and formatting helpers, and the target rows they end in. Pure. */

/** One row of the targets table. */
export interface Target {
  id: string;
  name: string;
  goal: string;
  /** Undefined when it could not be measured. */
  pass?: boolean;
  measured: string;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.min(s.length, Math.max(1, Math.ceil((p / 100) * s.length)));
  return s[rank - 1]!;
}

export function min(values: readonly number[]): number {
  return values.length ? Math.min(...values) : NaN;
}

export function max(values: readonly number[]): number {
  return values.length ? Math.max(...values) : NaN;
}

/** Milliseconds: `12.3 ms` below 100, `123 ms` below 10 s, `12.3 s` above. */
export function ms(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  if (Math.abs(v) < 100) return `${v.toFixed(1)} ms`;
  if (Math.abs(v) < 10_000) return `${Math.round(v)} ms`;
  return `${(v / 1000).toFixed(1)} s`;
}

export function bytes(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  if (v < 10_000) return `${Math.round(v)} B`;
  if (v < 10_000_000) return `${(v / 1024).toFixed(1)} KiB`;
  return `${(v / 1024 / 1024).toFixed(1)} MiB`;
}

/** A ratio in the targets: `12.3×` from 10 on, `1.23×` below. */
export function ratio(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  return v >= 10 ? `${v.toFixed(1)}×` : `${v.toFixed(2)}×`;
}

/** Milliseconds in the targets: `123 ms` below 10 s, `12.3 s` above. */
export function shortMs(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  return v < 10_000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`;
}

/** A ratio like `12.3×`. */
export function times(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  return v >= 100 ? `${Math.round(v)}×` : v >= 10 ? `${v.toFixed(1)}×` : `${v.toFixed(2)}×`;
}

export function count(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/** `median (min–max)` of a series, for tables. */
export function spread(values: readonly number[], fmt: (v: number) => string = ms): string {
  if (values.length <= 1) return fmt(values[0] ?? NaN);
  return `${fmt(median(values))} (${fmt(min(values))}–${fmt(max(values))})`;
}
