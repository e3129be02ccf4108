/*
 * Builds the embedded recogniser's call model (models/sphinx/en-us-calls/): a trigram language model
 * from the training split of the shippable transcripts (robocalls, task dialogues, coffee orders, Harper
 * Valley bank calls) and the texts written for this project (models/data, models/sphinx/phrases.txt),
 * mixed with Debian's general English unigrams,
 * and the pronunciation dictionary of its vocabulary (cmudict plus models/sphinx/lexicon.dict).
 * `npm run build-lm`. Deterministic: the same data and Debian model give byte-identical files.
 *
 * Needs `pocketsphinx-en-us` (general model, cmudict) and `sphinxbase-utils` (sphinx_lm_convert, which
 * turns the ARPA text into the binary form that loads in a fraction of the time).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spokenWords } from '../src/eval/spoken.js';
import { defaultDataDir, fnv1a, loadCorpus } from '../src/eval/split.js';
import { CALL_MODEL_DIR, GENERAL_MODEL_ROOT } from '../src/providers/stt/sphinx-model.js';
import { readGeneralUnigrams } from './lm/general.js';
import { buildArpa } from './lm/kneser-ney.js';

/** Most frequent general-English words kept beside the calls' own vocabulary. */
const GENERAL_WORDS = 12_000;
const GENERAL_WEIGHT = 0.3;
const MIN_TRIGRAM_COUNT = 2;

const repo = path.resolve(import.meta.dirname, '..');
const out = path.join(repo, CALL_MODEL_DIR);

function readDict(file: string): Map<string, string[]> {
  const dict = new Map<string, string[]>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^(\S+?)(?:\(\d+\))?\s+(.+)$/.exec(line.trim());
    if (!m) continue;
    const prons = dict.get(m[1]!) ?? [];
    if (!prons.includes(m[2]!)) prons.push(m[2]!);
    dict.set(m[1]!, prons);
  }
  return dict;
}

const sentencesOf = (text: string): string[][] =>
  text
    .split(/\n|(?<=[.!?])\s+/)
    .map(spokenWords)
    .filter((s) => s.length > 0);
const readLines = (file: string): string[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));

// Training split only, shippable licences only (Switchboard is evaluation-only and never enters).
const corpus = loadCorpus(defaultDataDir()).filter((e) => e.split === 'train' && e.trainable);
const harper = readLines(path.join(defaultDataDir(), 'harper-valley-bank', 'calls.jsonl'))
  .map((l) => JSON.parse(l) as { id: string; lines: Array<{ text: string }> })
  .filter((c) => fnv1a(`harper:${c.id}`) % 100 < 60);
const written = ['scam-examples.jsonl', 'hard-negatives.jsonl'].flatMap((f) =>
  readLines(path.join(repo, 'models', 'data', f)).map((l) => (JSON.parse(l) as { text: string }).text),
);
const sources: Record<string, string[]> = {
  ...Object.fromEntries(
    ['robocall', 'sgd', 'taskmaster4'].map((s) => [s, corpus.filter((e) => e.source === s).map((e) => e.transcript)]),
  ),
  'harper-valley': harper.map((c) => c.lines.map((x) => x.text).join('\n')),
  'models/data (written)': written,
  // Each written phrase counts three times, so its trigrams survive the pruning of one-off trigrams.
  'models/sphinx/phrases.txt (written, ×3)': Array<string[]>(3)
    .fill(readLines(path.join(repo, 'models', 'sphinx', 'phrases.txt')))
    .flat(),
};
const sentences = Object.values(sources).flatMap((texts) => texts.flatMap(sentencesOf));

const cmudict = readDict(path.join(GENERAL_MODEL_ROOT, 'cmudict-en-us.dict'));
const lexicon = readDict(path.join(repo, 'models', 'sphinx', 'lexicon.dict'));
const prons = (w: string): string[] => [...(lexicon.get(w) ?? []), ...(cmudict.get(w) ?? [])];

const general = readGeneralUnigrams(path.join(GENERAL_MODEL_ROOT, 'en-us.lm.bin'));
const vocab = new Set<string>(lexicon.keys());
for (const s of sentences) for (const w of s) if (prons(w).length) vocab.add(w);
const domainWords = vocab.size;
[...general]
  .filter(([w]) => !w.startsWith('<') && prons(w).length)
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, GENERAL_WORDS)
  .forEach(([w]) => vocab.add(w));

const arpa = buildArpa(sentences, {
  vocab,
  general,
  generalWeight: GENERAL_WEIGHT,
  minTrigramCount: MIN_TRIGRAM_COUNT,
});

fs.mkdirSync(out, { recursive: true });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'build-lm-'));
const arpaFile = path.join(tmp, 'calls.lm');
fs.writeFileSync(arpaFile, arpa);
const convert = spawnSync('sphinx_lm_convert', ['-i', arpaFile, '-o', path.join(out, 'calls.lm.bin')], {
  stdio: ['ignore', 'ignore', 'pipe'],
  encoding: 'utf8',
});
if (convert.status !== 0) {
  console.error(convert.error?.message ?? convert.stderr.split('\n').slice(-5).join('\n'));
  console.error('sphinx_lm_convert failed (Debian package sphinxbase-utils)');
  process.exit(1);
}
fs.rmSync(tmp, { recursive: true, force: true });

const dictLines: string[] = [];
for (const w of [...vocab].sort()) {
  prons(w).forEach((p, i) => dictLines.push(`${i === 0 ? w : `${w}(${i + 1})`} ${p}`));
}
fs.writeFileSync(path.join(out, 'calls.dict'), `${dictLines.join('\n')}\n`);

const counts = /ngram 1=(\d+)\nngram 2=(\d+)\nngram 3=(\d+)/.exec(arpa)!;
const summary = {
  trainingTexts: Object.fromEntries(Object.entries(sources).map(([k, v]) => [k, v.length])),
  sentences: sentences.length,
  words: sentences.reduce((n, s) => n + s.length, 0),
  vocabulary: { total: vocab.size, fromCalls: domainWords, general: vocab.size - domainWords },
  ngrams: { 1: Number(counts[1]), 2: Number(counts[2]), 3: Number(counts[3]) },
  settings: { generalWords: GENERAL_WORDS, generalWeight: GENERAL_WEIGHT, minTrigramCount: MIN_TRIGRAM_COUNT },
};
fs.writeFileSync(path.join(out, 'build.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary));
