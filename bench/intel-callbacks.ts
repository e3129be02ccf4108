/*
 * How many of the callback numbers a caller states the intel extraction finds, in E.164.
 *
 * Two sets: the English robocall transcripts of ncsu-robocall-ftc-ppone (Whisper output: digits, dashes
 * in odd places, numbers in words), whose stated numbers were read by hand into
 * bench/intel-robocall-callbacks.json, and the written lines of test/fixtures/callback-lines.jsonl
 * (spoken digits, "triple five", "eight hundred", country codes, lower case without punctuation).
 * A number extracted that was not stated counts against precision.
 *
 * `npx tsx bench/intel-callbacks.ts [--data ../shared/data] [--write]`; `--write` puts the table into
 * bench/RESULTS.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { parseCsv } from '../src/eval/split.js';
import { extractIntel } from '../src/rules/intel/extract.js';

const here = path.dirname(fileURLToPath(import.meta.url));

interface Case {
  id: string;
  text: string;
  numbers: string[];
}

interface Tally {
  texts: number;
  stated: number;
  found: number;
  spurious: number;
  missed: string[];
  extra: string[];
}

function tally(cases: readonly Case[]): Tally {
  const t: Tally = { texts: cases.length, stated: 0, found: 0, spurious: 0, missed: [], extra: [] };
  for (const c of cases) {
    const got = extractIntel(c.text).callback_numbers ?? [];
    t.stated += c.numbers.length;
    for (const n of c.numbers) {
      if (got.includes(n)) t.found += 1;
      else t.missed.push(`${c.id} ${n}`);
    }
    for (const n of got) {
      if (c.numbers.includes(n)) continue;
      t.spurious += 1;
      t.extra.push(`${c.id} ${n}`);
    }
  }
  return t;
}

function robocallCases(dataDir: string): { unique: Case[]; all: Case[] } {
  const dir = path.join(dataDir, 'ncsu-robocall-ftc-ppone');
  const [head, ...rows] = parseCsv(fs.readFileSync(path.join(dir, 'transcripts_with_clusters.csv'), 'utf8'));
  const col = (name: string) => head!.indexOf(name);
  const [key, lang, text] = [col('recording_key'), col('language'), col('transcript')];
  const truth = (
    JSON.parse(fs.readFileSync(path.join(here, 'intel-robocall-callbacks.json'), 'utf8')) as {
      numbers: Record<string, string[]>;
    }
  ).numbers;
  const all: Case[] = [];
  const unique: Case[] = [];
  // Duplicates share the text, so they share the numbers read from their first copy.
  const byText = new Map<string, string[]>();
  for (const r of rows) {
    if (r[lang] !== 'en' || !r[text]) continue;
    const norm = r[text]!.trim().toLowerCase();
    const first = !byText.has(norm);
    if (first) byText.set(norm, truth[r[key]!] ?? []);
    const c = { id: r[key]!, text: r[text]!, numbers: byText.get(norm)! };
    all.push(c);
    if (first) unique.push(c);
  }
  return { unique, all };
}

function writtenCases(): Case[] {
  return fs
    .readFileSync(path.join(here, '../test/fixtures/callback-lines.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Case);
}

const DIGIT_NAMES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** The text as a recogniser without punctuation or numerals writes it: "call eight four four six four nine …". */
function asSpoken(c: Case): Case {
  const text = c.text
    .toLowerCase()
    .replace(/\d/g, (d) => ` ${DIGIT_NAMES[Number(d)]} `)
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { ...c, text };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : 'n/a');

function row(name: string, t: Tally): string {
  return `| ${name} | ${t.texts} | ${t.stated} | ${t.found} | **${pct(t.found, t.stated)}** | ${t.spurious} |`;
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export function run(dataDir: string): string {
  const robo = robocallCases(dataDir);
  const uniq = tally(robo.unique);
  const all = tally(robo.all);
  const spoken = tally(robo.unique.map(asSpoken));
  const written = tally(writtenCases());
  const lines = [
    '| set | texts | stated callback numbers | extracted (E.164) | recall | numbers extracted that were not stated |',
    '|---|---|---|---|---|---|',
    row('robocalls, English, distinct texts', uniq),
    row('robocalls, English, every row (duplicates counted)', all),
    row('the distinct robocalls in lower case, no punctuation, every digit a word', spoken),
    row('written lines (`test/fixtures/callback-lines.jsonl`)', written),
  ];
  const misses = [...uniq.missed, ...spoken.missed.map((m) => `${m} (spoken)`), ...written.missed];
  const extras = [...uniq.extra, ...spoken.extra.map((m) => `${m} (spoken)`), ...written.extra];
  if (misses.length) lines.push('', `Missed: ${misses.join('; ')}.`);
  if (extras.length) lines.push('', `Not stated but extracted: ${extras.join('; ')}.`);
  lines.push('', `Commit ${commit()}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.`);
  return lines.join('\n');
}

function writeResults(markdown: string): void {
  const file = path.join(here, 'RESULTS.md');
  const begin = '<!-- intel-callbacks:begin -->';
  const end = '<!-- intel-callbacks:end -->';
  const current = fs.readFileSync(file, 'utf8');
  if (!current.includes(begin)) throw new Error(`${file}: no ${begin} marker`);
  const from = current.indexOf(begin) + begin.length;
  fs.writeFileSync(file, `${current.slice(0, from)}\n${markdown}\n${current.slice(current.indexOf(end))}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--data');
  const dataDir = at >= 0 ? args[at + 1]! : path.resolve(here, '../../shared/data');
  const markdown = run(dataDir);
  console.log(markdown);
  if (args.includes('--write')) writeResults(markdown);
}
