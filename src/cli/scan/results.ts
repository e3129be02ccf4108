/*
 * `voice scan` results: one JSON line per scanned file (appended as each finishes, so an interrupted
 * run keeps what it did), a CSV rebuilt from them at the end, and the summary table.
 */
import fs from 'node:fs';
import { INTEL_LIST_FIELDS, type Intel } from '../../domain/intel.js';
import type { InputFile } from './inputs.js';
import type { ScanOutcome } from './scanners.js';

export interface ResultRow {
  file: string;
  size: number;
  mtime_ms: number;
  session_id?: string;
  score?: number;
  level?: string;
  category?: string;
  tactics?: string[];
  /** Facts per intel field (only fields with any). */
  intel_counts?: Record<string, number>;
  reported?: boolean;
  /** What was scored (for audio: what the recogniser heard), one line per utterance. */
  transcript?: string;
  /** Why the file could not be scored; such files are tried again by the next run. */
  error?: string;
  seconds: number;
}

export function intelCounts(intel: Intel): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of INTEL_LIST_FIELDS) if (intel[f]?.length) out[f] = intel[f]!.length;
  if (intel.dtmf) out.dtmf = 1;
  return out;
}

export function okRow(file: InputFile, r: ScanOutcome, seconds: number): ResultRow {
  return {
    file: file.path,
    size: file.size,
    mtime_ms: file.mtimeMs,
    session_id: r.session_id,
    score: r.verdict.score,
    level: r.verdict.level,
    category: r.verdict.category,
    tactics: r.verdict.tactics,
    intel_counts: intelCounts(r.intel),
    reported: r.reported,
    transcript: r.transcript,
    seconds: round(seconds),
  };
}

export function errorRow(file: InputFile, error: string, seconds: number): ResultRow {
  return { file: file.path, size: file.size, mtime_ms: file.mtimeMs, error, seconds: round(seconds) };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** Rows of an earlier run (unreadable lines are ignored: a run killed mid-write leaves half a line). */
export function readRows(jsonlFile: string): ResultRow[] {
  if (!fs.existsSync(jsonlFile)) return [];
  const rows: ResultRow[] = [];
  for (const line of fs.readFileSync(jsonlFile, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as ResultRow;
      if (typeof r.file === 'string') rows.push(r);
    } catch {
      // skip
    }
  }
  return rows;
}

/** The resume key: a file is done when a row for the same path, size and mtime scored it. */
export function doneKey(r: { file: string; size: number; mtime_ms: number }): string {
  return `${r.file}\u0000${r.size}\u0000${r.mtime_ms}`;
}

/** The latest row per file, in first-seen order. */
export function latestRows(rows: readonly ResultRow[]): ResultRow[] {
  const byFile = new Map<string, ResultRow>();
  for (const r of rows) {
    byFile.delete(r.file);
    byFile.set(r.file, r);
  }
  return [...byFile.values()];
}

export const CSV_COLUMNS = [
  'file',
  'session_id',
  'score',
  'level',
  'category',
  'tactics',
  'intel_count',
  'intel',
  'reported',
  'error',
  'transcript',
] as const;

function csvCell(v: unknown): string {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * CSV with a header row; tactics joined by `;`, intel counts as `field=n;…`. The transcript is last
 * because it is long and multi-line (quoted, so spreadsheets keep it in one cell).
 */
export function toCsv(rows: readonly ResultRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    const counts = r.intel_counts ?? {};
    const cells = [
      r.file,
      r.session_id,
      r.score,
      r.level,
      r.category,
      r.tactics?.join(';'),
      r.error ? '' : Object.values(counts).reduce((a, b) => a + b, 0),
      Object.entries(counts)
        .map(([k, n]) => `${k}=${n}`)
        .join(';'),
      r.error ? '' : r.reported,
      r.error,
      r.transcript,
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** The closing table: files per level, failures, mean score, top categories, throughput. */
export function summaryTable(
  rows: readonly ResultRow[],
  stats: { scanned: number; skipped: number; seconds: number; waits?: number },
): string {
  const ok = rows.filter((r) => !r.error);
  const levels = ['clean', 'suspicious', 'likely_scam', 'scam'];
  const count = (level: string) => ok.filter((r) => r.level === level).length;
  const categories = new Map<string, number>();
  for (const r of ok)
    if (r.category && r.category !== 'none') categories.set(r.category, (categories.get(r.category) ?? 0) + 1);
  const top = [...categories.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
  const mean = ok.length ? ok.reduce((a, r) => a + (r.score ?? 0), 0) / ok.length : 0;
  const table: Array<[string, string]> = [
    ['files', String(rows.length)],
    ['scanned now', String(stats.scanned)],
    ['skipped (done before)', String(stats.skipped)],
    ['failed', String(rows.length - ok.length)],
    ...levels.map((l): [string, string] => [l, String(count(l))]),
    ['reported', String(ok.filter((r) => r.reported).length)],
    ['mean score', mean.toFixed(3)],
    ...(stats.waits ? [['waits on the rate limit', String(stats.waits)] as [string, string]] : []),
    ['elapsed', `${stats.seconds.toFixed(1)} s`],
    ...top.map(([c, n]): [string, string] => [`category: ${c}`, String(n)]),
  ];
  const width = Math.max(...table.map(([k]) => k.length));
  return table.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n');
}
