/**
 * `voice eval [data dir] [--split tune|holdout|final|all] [--no-cross] [--limit N] [--llm local|openai|bedrock|none]
 *             [--calibrate] [--form written|recognised] [--write bench/RESULTS.md] [--extra file.jsonl ...]`
 *
 * Scores labelled transcripts and prints scam/not-scam and category figures. Only the caller's words
 * are scored (a transcript without caller labels is scored whole), exactly as `POST /scan` does.
 * Then, unless `--no-cross`: the leave-one-source-out table of the rules (calibration refitted
 * without the source it scores; the figures of record), and last the final part of every source,
 * which nothing is tuned on, scored as shipped. `--form recognised` scores every transcript as a mono
 * recording's recogniser would write it (no speaker labels, no punctuation, numbers in words).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { FINAL_ANALYSIS_MS } from '../domain/limits.js';
import { createLogger } from '../log.js';
import type { ModelProvider } from '../providers/llm/types.js';
import { callerText, callShape, parseTranscript, scoreOnly } from '../rules/index.js';
import { CALIBRATION } from '../rules/calibration.js';
import { loadDatasets, type EvalRecord } from '../eval/datasets.js';
import { evaluate, formatReport, rulesThroughput, type Prediction } from '../eval/evaluate.js';
import { calibrationPoints, fitCalibration } from '../eval/calibrate.js';
import { formatCrossSource, leaveOneSourceOut } from '../eval/cross-source.js';
import { assess, type Calibration } from '../rules/assess.js';
import { findEvidence } from '../rules/evidence.js';
import { defaultDataDir } from '../eval/split.js';
import { recognisedForm } from '../eval/spoken.js';
import { finalAnalysis } from '../../pipelines/final-analysis.js';

export interface EvalOptions {
  dataDir: string;
  split: 'tune' | 'holdout' | 'final' | 'all';
  /** Print the leave-one-source-out table and the final part after the split's report. */
  cross: boolean;
  limit?: number;
  llm: Config['llm'];
  calibrate: boolean;
  form: 'written' | 'recognised';
  write?: string;
  extra: string[];
}

const USAGE =
  'Usage: voice eval [data dir] [--split tune|holdout|final|all] [--no-cross] [--limit N] [--llm local|openai|bedrock|none] [--calibrate] [--form written|recognised] [--write FILE] [--extra FILE.jsonl]';

/** Our own labelled additions: hard negatives and written scam calls, kept with the tests. */
export const DEFAULT_EXTRA = [
  'test/fixtures/hard-negatives.jsonl',
  'test/fixtures/scam-calls.jsonl',
  'test/fixtures/phrase-calls.jsonl',
  'test/fixtures/conversation-calls.jsonl',
  'test/fixtures/conversation-holdout.jsonl',
];

export function parseArgs(argv: readonly string[]): EvalOptions | string {
  const opts: EvalOptions = {
    dataDir: defaultDataDir(),
    split: 'holdout',
    cross: true,
    llm: 'none',
    calibrate: false,
    form: 'written',
    extra: [...DEFAULT_EXTRA],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => argv[++i];
    if (a === '--split') {
      const v = value();
      if (v !== 'tune' && v !== 'holdout' && v !== 'final' && v !== 'all')
        return `--split must be tune, holdout, final or all`;
      opts.split = v;
    } else if (a === '--no-cross') opts.cross = false;
    else if (a === '--limit') {
      const v = value();
      if (!v || !/^\d+$/.test(v) || Number(v) < 1) return '--limit must be a positive whole number';
      opts.limit = Number(v);
    } else if (a === '--llm') {
      const v = value();
      if (v !== 'local' && v !== 'openai' && v !== 'bedrock' && v !== 'none')
        return '--llm must be local, openai, bedrock or none';
      opts.llm = v;
    } else if (a === '--calibrate') opts.calibrate = true;
    else if (a === '--form') {
      const v = value();
      if (v !== 'written' && v !== 'recognised') return '--form must be written or recognised';
      opts.form = v;
    } else if (a === '--write') {
      const v = value();
      if (!v) return '--write needs a file';
      opts.write = v;
    } else if (a === '--extra') {
      const v = value();
      if (!v) return '--extra needs a file';
      opts.extra.push(v);
    } else if (a === '--no-extra') opts.extra = [];
    else if (a === '-h' || a === '--help') return USAGE;
    else if (a.startsWith('-')) return `unknown option ${a}\n${USAGE}`;
    else opts.dataDir = path.resolve(a);
  }
  return opts;
}

/** Takes every n-th record so a small slice still holds every source (deterministic). */
export function slice(records: readonly EvalRecord[], limit: number | undefined): EvalRecord[] {
  if (!limit || limit >= records.length) return [...records];
  const out: EvalRecord[] = [];
  const bySource = new Map<string, EvalRecord[]>();
  for (const r of records) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r]);
  const share = limit / records.length;
  for (const list of bySource.values()) {
    const n = Math.max(1, Math.round(list.length * share));
    const step = list.length / n;
    for (let k = 0; k < n && out.length < limit; k++) out.push(list[Math.floor(k * step)]!);
  }
  return out;
}

export function selectRecords(opts: EvalOptions, all = loadDatasets(opts.dataDir, opts.extra)): EvalRecord[] {
  const chosen = opts.split === 'all' ? all : all.filter((r) => r.split === opts.split);
  return slice(chosen, opts.limit);
}

/** Scored as the final analysis scores a call: the caller's words, in the context of the call's shape. */
function rulesPrediction(r: EvalRecord): Prediction {
  const utterances = parseTranscript(r.transcript);
  const a = scoreOnly(callerText(utterances), callShape(utterances));
  return { score: a.score, category: a.category };
}

function rulesWith(cal: Calibration): (r: EvalRecord) => Prediction {
  return (r) => {
    const utterances = parseTranscript(r.transcript);
    const a = assess(findEvidence(callerText(utterances)), cal, callShape(utterances));
    return { score: a.score, category: a.category };
  };
}

/**
 * The rules' leave-one-source-out table: each fold refits the calibration without the source it
 * scores (the cue weights are hand-set and shared by every fold: they were written against the
 * tuning parts of all sources, which is why the final part exists).
 */
export async function rulesCrossSource(records: readonly EvalRecord[], title: string): Promise<string> {
  const report = await leaveOneSourceOut(records, (trainOn) => {
    const fit = fitCalibration(calibrationPoints(trainOn));
    const edge = fit.edge ? ' (on the search edge)' : '';
    return { predict: rulesWith(fit), note: `scale ${fit.scale.toFixed(2)}, bias ${fit.bias.toFixed(2)}${edge}` };
  });
  return formatCrossSource(title, report);
}

async function modelPredictor(llm: ModelProvider): Promise<(r: EvalRecord) => Promise<Prediction>> {
  return async (r) => {
    const utterances = parseTranscript(r.transcript);
    const ctrl = new AbortController();
    const timer = setTimeout(
      () => ctrl.abort(new Error(`analysis timed out after ${FINAL_ANALYSIS_MS / 1000} s`)),
      FINAL_ANALYSIS_MS,
    );
    try {
      const { verdict } = await finalAnalysis(
        { utterances, callerText: callerText(utterances), product: 'scan' },
        llm,
        ctrl.signal,
      );
      return { score: verdict.score, category: verdict.category };
    } finally {
      clearTimeout(timer);
    }
  };
}

/** Rewrites the "Verdict quality" section of a results file, leaving every other section alone. */
export function writeSection(file: string, body: string): void {
  const heading = '## Verdict quality';
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Results\n';
  const start = old.indexOf(heading);
  let next: string;
  if (start < 0) next = `${old.trimEnd()}\n\n${heading}\n\n${body.trim()}\n`;
  else {
    const after = old.indexOf('\n## ', start + heading.length);
    const tail = after < 0 ? '' : old.slice(after);
    next = `${old.slice(0, start)}${heading}\n\n${body.trim()}\n${tail}`;
  }
  writeFileSync(file, next);
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv);
  if (typeof parsed === 'string') {
    console.error(parsed);
    return parsed === USAGE ? 0 : 2;
  }
  const opts = parsed;
  if (opts.calibrate && opts.split === 'holdout') {
    console.error('voice eval: --calibrate fits on the tuning split only; use --split tune');
    return 2;
  }
  let records: EvalRecord[];
  let all: EvalRecord[];
  try {
    all = loadDatasets(opts.dataDir, opts.extra);
    if (opts.form === 'recognised') all = all.map((r) => ({ ...r, transcript: recognisedForm(r.transcript) }));
    records = selectRecords(opts, all);
  } catch (e) {
    console.error(`voice eval: ${(e as Error).message}`);
    return 2;
  }
  if (records.length === 0) {
    console.error('voice eval: no transcripts selected');
    return 2;
  }

  if (opts.calibrate) {
    const tune = records.filter((r) => r.split === 'tune');
    const fit = fitCalibration(calibrationPoints(tune));
    console.log(
      `Calibration fit on ${tune.length} tuning transcripts: scale=${fit.scale.toFixed(3)} bias=${fit.bias.toFixed(3)}${fit.edge ? ' (on the search edge)' : ''}`,
    );
    console.log(`(current: scale=${CALIBRATION.scale} bias=${CALIBRATION.bias})`);
  }

  let llm: ModelProvider | null = null;
  let predict: (r: EvalRecord) => Prediction | Promise<Prediction> = rulesPrediction;
  if (opts.llm !== 'none') {
    const { createModelProvider } = await import('../providers/llm/index.js');
    const config: Config = { ...loadConfig(), llm: opts.llm };
    llm = await createModelProvider(config, createLogger('warn'), { llm: opts.llm });
    if (!llm) {
      console.error(`voice eval: model provider "${opts.llm}" is not available in this configuration`);
      return 2;
    }
    predict = await modelPredictor(llm);
  }

  const throughput =
    opts.llm === 'none'
      ? () => {
          const texts = records.map((r) => callerText(parseTranscript(r.transcript)));
          return rulesThroughput(texts, scoreOnly);
        }
      : undefined;
  const report = await evaluate(records, predict, throughput);
  const date = new Date().toISOString().slice(0, 10);
  const form = opts.form === 'recognised' ? ', transcripts in recognised form' : '';
  const title = `${opts.split} split, ${opts.llm === 'none' ? 'rules only' : `rules + ${llm?.id ?? opts.llm}`}${form}, ${date}`;
  const text = formatReport(title, report);
  console.log(text);
  if (report.worstLegit.length)
    console.log(
      `\nLegitimate calls at ≥ likely_scam: ${report.worstLegit.map((x) => `${x.id}=${x.score.toFixed(2)}`).join(', ')}`,
    );
  if (report.missedScams.length)
    console.log(
      `Scam calls below likely_scam (lowest): ${report.missedScams.map((x) => `${x.id}=${x.score.toFixed(2)}`).join(', ')}`,
    );
  const parts = [text];
  if (opts.cross) {
    const crossTitle = `Leave one source out, rules only (calibration refitted per fold), tune + holdout parts${form}, ${date}`;
    const cross = await rulesCrossSource(
      slice(
        all.filter((r) => r.split !== 'final'),
        opts.limit,
      ),
      crossTitle,
    );
    console.log(`\n${cross}`);
    const finalPart = slice(
      all.filter((r) => r.split === 'final'),
      opts.limit,
    );
    const finalReport = await evaluate(finalPart, predict);
    const finalText = formatReport(
      `Final part (untouched until now), ${opts.llm === 'none' ? 'rules only' : `rules + ${llm?.id ?? opts.llm}`}, as shipped${form}, ${date}`,
      finalReport,
    );
    console.log(`\n${finalText}`);
    parts.push(cross, finalText);
  }
  if (opts.write) writeSection(opts.write, parts.join('\n\n'));
  await llm?.close?.();
  return 0;
}
