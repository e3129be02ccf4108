/*
 * The labelled corpus and its one deterministic split, shared by every evaluation and by model
 * training, so no figure is ever reported on text a scorer was tuned or trained on.
 *
 * - Robocalls are deduplicated (exact text) and grouped by campaign: the authors' campaign clusters,
 *   joined with near-duplicate text (word 5-gram Jaccard ≥ 0.5). A whole group lands in one split.
 * - Every other source is split per dialogue.
 * - The split is a hash of (source, group): stable across runs, machines and row order.
 * - `trainable` follows each source's licence: Switchboard (CC BY-NC-SA) is evaluation only.
 * - A final part of every source (10 % of its groups, by a second hash of (source, group)) is kept
 *   out of training, calibration, tuning and the everyday holdout alike: it is scored once, last.
 */
import fs from 'node:fs';
import path from 'node:path';

export type Source = 'robocall' | 'sgd' | 'taskmaster4' | 'switchboard' | 'harpervalley';
export type Split = 'train' | 'calibration' | 'test' | 'final';

export interface Example {
  id: string;
  source: Source;
  label: 'scam' | 'legit';
  /** The transcript as stored (speaker labels kept). */
  transcript: string;
  /** Campaign or dialogue group: examples of one group share a split. */
  group: string;
  split: Split;
  /** May train a shipped model (licence). */
  trainable: boolean;
  /** Robocall campaign tag from the file name, when known. */
  tag?: string;
  language?: string;
}

/** Percentages of groups per split: 60 train, 15 calibration, 25 held-back test (of what the final part leaves). */
const TRAIN_PCT = 60;
const CALIBRATION_PCT = 15;
/** Share of every source's groups kept untouched until the end (`final`), by a hash independent of the split's. */
const FINAL_PCT = 10;

/** True for the groups of the final part: `fnv1a("final:<source>:<group>") % 100 < 10`. */
export function isFinal(source: string, group: string): boolean {
  return fnv1a(`final:${source}:${group}`) % 100 < FINAL_PCT;
}

export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function splitOf(source: Source, group: string): Split {
  if (isFinal(source, group)) return 'final';
  const bucket = fnv1a(`${source}:${group}`) % 100;
  if (bucket < TRAIN_PCT) return 'train';
  if (bucket < TRAIN_PCT + CALIBRATION_PCT) return 'calibration';
  return 'test';
}

/** Default location of the labelled data: `../shared/data` beside the repository. */
export function defaultDataDir(): string {
  return process.env.VOICE_EVAL_DATA ?? path.resolve(process.cwd(), '..', 'shared', 'data');
}

export function loadCorpus(dataDir: string = defaultDataDir()): Example[] {
  return [
    ...loadRobocalls(dataDir),
    ...loadJsonl(dataDir, 'sgd-schema-guided', 'sgd', true),
    ...loadJsonl(dataDir, 'taskmaster4-coffee', 'taskmaster4', true),
    ...loadJsonl(dataDir, 'switchboard-swda', 'switchboard', false),
    ...loadHarperValley(dataDir),
  ];
}

/** The bank's own name, said in nearly every call: training masks it, so a model learns the talk and not the corpus marker. */
const HARPER_VALLEY = /\bharper valley(?: national)?(?: bank)?\b/gi;
export function maskCorpusMarkers(text: string): string {
  return text.replace(HARPER_VALLEY, 'the bank');
}

/**
 * Harper Valley bank calls, written with the bank agent as the caller (the bank calling): the
 * evaluation also scores each with the customer as the caller (datasets.ts). Calls missing from an
 * older copy of the data are simply absent.
 */
function loadHarperValley(dataDir: string): Example[] {
  const file = path.join(dataDir, 'harper-valley-bank', 'calls.jsonl');
  if (!fs.existsSync(file)) return [];
  const out: Example[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { id: string; lines: Array<{ speaker: string; text: string }> };
    const transcript = row.lines.map((l) => `${l.speaker === 'agent' ? 'caller' : 'callee'}: ${l.text}`).join('\n');
    out.push({
      id: row.id,
      source: 'harpervalley',
      label: 'legit',
      transcript,
      group: row.id,
      split: splitOf('harpervalley', row.id),
      trainable: true,
    });
  }
  return out;
}

function loadJsonl(dataDir: string, folder: string, source: Source, trainable: boolean): Example[] {
  const file = path.join(dataDir, folder, 'calls.jsonl');
  const out: Example[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as { id: string; label: string; transcript: string };
    out.push({
      id: row.id,
      source,
      label: row.label === 'scam' ? 'scam' : 'legit',
      transcript: row.transcript,
      group: row.id,
      split: splitOf(source, row.id),
      trainable,
    });
  }
  return out;
}

function loadRobocalls(dataDir: string): Example[] {
  const rows = parseCsv(
    fs.readFileSync(path.join(dataDir, 'ncsu-robocall-ftc-ppone', 'transcripts_with_clusters.csv'), 'utf8'),
  );
  const header = rows.shift() ?? [];
  const col = (name: string): number => header.indexOf(name);
  const [iKey, iLang, iText, iCluster, iTag] = [
    'recording_key',
    'language',
    'transcript',
    'campaign_cluster_id',
    'filename_campaign_tag',
  ].map(col);
  const seen = new Set<string>();
  const kept: Array<{ key: string; lang: string; text: string; cluster: string; tag: string }> = [];
  for (const r of rows) {
    const text = (r[iText!] ?? '').trim();
    const norm = text.toLowerCase().replace(/\s+/g, ' ');
    if (!text || seen.has(norm)) continue;
    seen.add(norm);
    kept.push({ key: r[iKey!] ?? '', lang: r[iLang!] ?? '', text, cluster: r[iCluster!] ?? '', tag: r[iTag!] ?? '' });
  }
  const groups = groupRobocalls(kept);
  return kept.map((k, i) => {
    const ex: Example = {
      id: `robocall-${k.key}`,
      source: 'robocall',
      label: 'scam',
      transcript: k.text,
      group: groups[i]!,
      split: splitOf('robocall', groups[i]!),
      trainable: true,
      language: k.lang,
    };
    if (k.tag) ex.tag = k.tag;
    return ex;
  });
}

/** Union-find over campaign clusters and near-duplicate text; a group is named by its smallest key. */
function groupRobocalls(rows: ReadonlyArray<{ key: string; text: string; cluster: string }>): string[] {
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const byCluster = new Map<string, number>();
  rows.forEach((r, i) => {
    if (!r.cluster) return;
    const first = byCluster.get(r.cluster);
    if (first === undefined) byCluster.set(r.cluster, i);
    else union(first, i);
  });
  const shingles = rows.map((r) => shingleSet(r.text));
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      if (jaccard(shingles[i]!, shingles[j]!) >= 0.5) union(i, j);
    }
  }
  const names = new Map<number, string>();
  rows.forEach((r, i) => {
    const root = find(i);
    const name = names.get(root);
    if (name === undefined || r.key < name) names.set(root, r.key);
  });
  return rows.map((_, i) => names.get(find(i))!);
}

function shingleSet(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  const out = new Set<string>();
  if (words.length < 5) out.add(words.join(' '));
  for (let i = 0; i + 5 <= words.length; i++) out.add(words.slice(i, i + 5).join(' '));
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  const [small, large] = a.size < b.size ? [a, b] : [b, a];
  for (const s of small) if (large.has(s)) inter++;
  return inter / (a.size + b.size - inter);
}

/** RFC 4180 CSV: quoted fields, doubled quotes, newlines inside quotes. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
