import type { RecordableHistogram } from 'node:perf_hooks';

/** A distribution summary in milliseconds: what crosses the process boundary and reaches the tables. */
export interface Summary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export const EMPTY_SUMMARY: Summary = { count: 0, p50: NaN, p90: NaN, p99: NaN, max: NaN };

/** Summary of a histogram recorded in nanoseconds (perf_hooks histograms record integers). */
export function summariseNs(h: RecordableHistogram | import('node:perf_hooks').IntervalHistogram): Summary {
  const count = 'count' in h ? h.count : 0;
  if (count === 0) return EMPTY_SUMMARY;
  return {
    count,
    p50: h.percentile(50) / 1e6,
    p90: h.percentile(90) / 1e6,
    p99: h.percentile(99) / 1e6,
    max: h.max / 1e6,
  };
}

/** Sampling interval of the event-loop delay monitors. */
export const LOOP_RESOLUTION_MS = 2;

/**
 * Event-loop delay: the monitor records the whole interval between its timer's runs, so the lag is
 * that minus the interval it asked for.
 */
export function summariseLoopDelay(h: import('node:perf_hooks').IntervalHistogram): Summary {
  const s = summariseNs(h);
  const lag = (x: number): number => Math.max(0, x - LOOP_RESOLUTION_MS);
  return s.count === 0 ? s : { count: s.count, p50: lag(s.p50), p90: lag(s.p90), p99: lag(s.p99), max: lag(s.max) };
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** Least-squares slope of y over x. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? NaN : num / den;
}

export const ms = (x: number, digits = 2): string => (Number.isFinite(x) ? x.toFixed(digits) : '–');
export const kb = (bytes: number): string => (Number.isFinite(bytes) ? (bytes / 1024).toFixed(1) : '–');
export const mb = (bytes: number): string => (Number.isFinite(bytes) ? (bytes / 1048576).toFixed(1) : '–');
