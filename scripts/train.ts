/*
 * `npm run train`: trains the embedded scam model from the licence-cleared part of the labelled data
 * and writes models/scamlr-v1.json. Figures on the held-back test split are printed (and stored in
 * the artefact) next to the rules-only figures on the same split.
 *
 * Training data: robocalls (public domain), SGD (CC BY-SA 4.0), Taskmaster-4 (CC BY 4.0), the
 * Harper Valley bank calls (Apache-2.0), and the hand-written examples in models/data. The final part
 * of every source (split.ts) is never trained on. After the shipped model, a leave-one-source-out
 * table (TRAIN_CROSS=0 skips it) and the final part are printed; TRAIN_FORM=recognised scores them as a mono
 * recording's recogniser writes calls. Switchboard (CC BY-NC-SA) is scored for evaluation only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCorpus, defaultDataDir, maskCorpusMarkers, type Example } from '../src/eval/split.js';
import { loadDatasets, SOURCE_NAMES, type EvalRecord } from '../src/eval/datasets.js';
import { formatCrossSource, leaveOneSourceOut } from '../src/eval/cross-source.js';
import { DEFAULT_EXTRA } from '../src/cli/eval.js';
import { calibrationPoints, fitCalibration } from '../src/eval/calibrate.js';
import { assess } from '../src/rules/assess.js';
import { findEvidence } from '../src/rules/evidence.js';
import { callerText as callerOf, callShape, parseTranscript } from '../src/rules/index.js';
import { combine } from '../src/domain/combine.js';
import { evaluate as evaluateRecords, formatReport as formatEvalReport } from '../src/eval/evaluate.js';
import type { VerdictCategory } from '../src/domain/categories.js';
import { CUE_NAMES } from '../src/providers/llm/local/evidence.js';
import { featurise, normalise, type FeatureSpace } from '../src/providers/llm/local/features.js';
import { LocalModel, type ModelArtefact } from '../src/providers/llm/local/model.js';
import { evaluate, formatFigures } from '../src/providers/llm/local/metrics.js';
import {
  auc,
  fitPlatt,
  round,
  trainCentroids,
  trainLogistic,
  type TrainingRow,
} from '../src/providers/llm/local/train.js';
import { weakCategory } from '../src/providers/llm/local/weak-labels.js';
import { recognisedForm } from '../src/eval/spoken.js';
import { scoreText } from '../src/rules/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SPACE: FeatureSpace = { hashBits: 14 };
const OPTIONS = {
  l2Words: Number(process.env.TRAIN_L2_WORDS ?? 1e-5),
  l2Topics: Number(process.env.TRAIN_L2_TOPICS ?? 1e-2),
  l2Cues: Number(process.env.TRAIN_L2_CUES ?? 1e-4),
  iterations: 600,
  learningRate: 0.3,
};
/** Hand-written rows count as much as this many corpus rows each: few, but they carry the hard cases. */
const HANDWRITTEN_WEIGHT = 4;

interface Handwritten {
  text: string;
  category?: VerdictCategory;
}

function readJsonl(file: string): Handwritten[] {
  return fs
    .readFileSync(path.join(root, 'models', 'data', file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Handwritten);
}

/** What the caller said, as the live graph would pass it: labels stripped, lines joined. */
export function callerText(ex: Pick<Example, 'transcript'>): string {
  return maskCorpusMarkers(ex.transcript)
    .split('\n')
    .map((l) => l.replace(/^\s*[A-Za-z]{1,14}\s*:\s*/, ''))
    .join('\n');
}

/** What one training run needs: corpus rows to fit and calibrate on, and the hand-written rows. */
interface TrainingSet {
  train: readonly Example[];
  calibration: readonly Example[];
  negatives: readonly Handwritten[];
  scams: readonly Handwritten[];
}

function main(): void {
  const dataDir = process.argv[2] ?? defaultDataDir();
  if (!fs.existsSync(path.join(dataDir, 'ncsu-robocall-ftc-ppone'))) {
    console.error(`npm run train: no labelled data in ${dataDir} (pass the data directory as the first argument)`);
    process.exit(1);
  }
  const corpus = loadCorpus(dataDir);
  const trainable = corpus.filter((e) => e.trainable);
  const train = trainable.filter((e) => e.split === 'train');
  const calibration = trainable.filter((e) => e.split === 'calibration');
  const test = corpus.filter((e) => e.split === 'test');
  const negatives = readJsonl('hard-negatives.jsonl');
  const scams = readJsonl('scam-examples.jsonl');

  const { draft, model, calMargins, calYs } = trainModel({ train, calibration, negatives, scams });

  const ys = test.map((e) => (e.label === 'scam' ? 1 : 0) as 0 | 1);
  const modelScores = test.map((e) => model.assess(callerText(e)).score);
  const ruleScores = test.map((e) => scoreText(callerText(e)).score);
  const figures = {
    test_split: countBy(test),
    model: evaluate(modelScores, ys),
    rules: evaluate(ruleScores, ys),
    model_switchboard_false_positive_rate_at_0_6: rate(
      test.filter((e) => e.source === 'switchboard').map((e) => model.assess(callerText(e)).score),
      (s) => s >= 0.6,
    ),
    calibration_auc: round(auc(calMargins, calYs), 4),
  };
  // Rules figures are printed, not stored: the rules change more often than the model.
  const { rules: _rules, ...modelFigures } = figures;
  draft.trained = {
    at: new Date().toISOString().slice(0, 10),
    by: 'npm run train (scripts/train.ts)',
    data: {
      'ncsu-robocall-ftc-ppone (public domain)': countBy(train.filter((e) => e.source === 'robocall')),
      'sgd-schema-guided (CC BY-SA 4.0, Rastogi et al. 2020)': train.filter((e) => e.source === 'sgd').length,
      'taskmaster4-coffee (CC BY 4.0, Byrne and Ganesh, Google LLC)': train.filter((e) => e.source === 'taskmaster4')
        .length,
      'harper-valley-bank (Apache-2.0, Copyright 2020 Gridspace Inc.; reformatted, bank name masked)': train.filter(
        (e) => e.source === 'harpervalley',
      ).length,
      'models/data/hard-negatives.jsonl (this project)': negatives.length,
      'models/data/scam-examples.jsonl (this project)': scams.length,
      calibration: calibration.length,
    },
    options: { ...OPTIONS, handwrittenWeight: HANDWRITTEN_WEIGHT },
    figures: modelFigures,
  };
  const out = path.join(root, 'models', 'scamlr-v1.json');
  fs.writeFileSync(out, `${JSON.stringify(draft)}\n`);
  console.log(`wrote ${path.relative(root, out)} (${(fs.statSync(out).size / 1024).toFixed(0)} KiB)`);
  console.log(formatFigures(figures.model, figures.rules));
  console.log(
    JSON.stringify({
      test_split: figures.test_split,
      switchboard_fpr_0_6: figures.model_switchboard_false_positive_rate_at_0_6,
      calibration_auc: figures.calibration_auc,
    }),
  );
  if (process.env.TRAIN_CROSS !== '0') void crossSource(dataDir, corpus, negatives, scams, model);
}

/** Our hand-written training rows as sources of their own, so a fold can leave them out too. */
const WRITTEN_NEGATIVES = 'models-data-hard-negatives';
const WRITTEN_SCAMS = 'models-data-scam-examples';

function writtenRecords(rows: readonly Handwritten[], source: string, label: 'scam' | 'legit'): EvalRecord[] {
  return rows.map((h, i) => {
    const rec: EvalRecord = {
      id: `${source}-${i}`,
      source,
      label,
      transcript: h.text,
      group: `${source}:${i}`,
      split: 'tune',
    };
    if (h.category && h.category !== 'none') rec.category = h.category;
    return rec;
  });
}

/**
 * The product's cross-source table: for each source, the embedded model is trained and the rules'
 * calibration fitted on every other source, and the left-out one is scored by both, combined as a
 * live or scanned call is. Then the final part of every source, scored by the shipped model.
 */
async function crossSource(
  dataDir: string,
  corpus: readonly Example[],
  negatives: readonly Handwritten[],
  scams: readonly Handwritten[],
  shipped: LocalModel,
): Promise<void> {
  const all = loadDatasets(
    dataDir,
    DEFAULT_EXTRA.map((f) => path.join(root, f)),
  );
  // TRAIN_FORM=recognised: every call scored as a mono recording's recogniser writes it.
  const recognised = process.env.TRAIN_FORM === 'recognised';
  const form = (r: EvalRecord): EvalRecord => (recognised ? { ...r, transcript: recognisedForm(r.transcript) } : r);
  const records = [
    ...all.filter((r) => r.split !== 'final'),
    ...writtenRecords(negatives, WRITTEN_NEGATIVES, 'legit'),
    ...writtenRecords(scams, WRITTEN_SCAMS, 'scam'),
  ].map(form);
  const suffix = recognised ? ', transcripts in recognised form' : '';
  const score = (model: LocalModel, cal: { scale: number; bias: number }) => (r: EvalRecord) => {
    const utterances = parseTranscript(r.transcript);
    const text = callerOf(utterances);
    const v = combine(assess(findEvidence(text), cal, callShape(utterances)), model.assess(text))!;
    return { score: v.score, category: v.category };
  };
  const report = await leaveOneSourceOut(records, (trainOn) => {
    const left = new Set(trainOn.map((r) => r.source));
    const keep = (e: Example) => e.trainable && left.has(SOURCE_NAMES[e.source]);
    const { model } = trainModel({
      train: corpus.filter((e) => keep(e) && e.split === 'train'),
      calibration: corpus.filter((e) => keep(e) && e.split === 'calibration'),
      negatives: left.has(WRITTEN_NEGATIVES) ? negatives : [],
      scams: left.has(WRITTEN_SCAMS) ? scams : [],
    });
    const cal = fitCalibration(calibrationPoints(trainOn));
    return {
      predict: score(model, cal),
      note: `model retrained; rules scale ${cal.scale.toFixed(2)}, bias ${cal.bias.toFixed(2)}`,
    };
  });
  const date = new Date().toISOString().slice(0, 10);
  console.log(
    `\n${formatCrossSource(`Leave one source out, rules + embedded model (both refitted per fold)${suffix}, ${date}`, report)}`,
  );
  const finalPart = all.filter((r) => r.split === 'final').map(form);
  const { CALIBRATION } = await import('../src/rules/calibration.js');
  const fin = await evaluateRecords(finalPart, score(shipped, CALIBRATION));
  console.log(
    `\n${formatEvalReport(`Final part (untouched until now), rules + embedded model as shipped${suffix}, ${date}`, fin)}`,
  );
}

/** Fits the regression, the centroids and the calibration: deterministic in its inputs. */
function trainModel({ train, calibration, negatives, scams }: TrainingSet): {
  draft: ModelArtefact;
  model: LocalModel;
  calMargins: number[];
  calYs: Array<0 | 1>;
} {
  // Class balance: scams and legit calls weigh the same in total.
  const nScam = train.filter((e) => e.label === 'scam').length + scams.length * HANDWRITTEN_WEIGHT;
  const nLegit = train.filter((e) => e.label === 'legit').length + negatives.length * HANDWRITTEN_WEIGHT;
  const rows: TrainingRow[] = [
    ...train.map((e) => ({
      vector: featurise(callerText(e), SPACE).vector,
      y: e.label === 'scam' ? (1 as const) : (0 as const),
      weight: e.label === 'scam' ? 1 / nScam : 1 / nLegit,
    })),
    ...scams.map((h) => ({
      vector: featurise(h.text, SPACE).vector,
      y: 1 as const,
      weight: HANDWRITTEN_WEIGHT / nScam,
    })),
    ...negatives.map((h) => ({
      vector: featurise(h.text, SPACE).vector,
      y: 0 as const,
      weight: HANDWRITTEN_WEIGHT / nLegit,
    })),
  ];
  const lr = trainLogistic(rows, SPACE, OPTIONS);

  const categoryRows = [
    ...train
      .filter((e) => e.label === 'scam')
      .map((e) => ({
        vector: featurise(callerText(e), SPACE).vector,
        category: weakCategory(normalise(e.transcript), e.language),
      })),
    ...scams.map((h) => ({ vector: featurise(h.text, SPACE).vector, category: h.category ?? 'Scammers' })),
  ];
  const centroids = trainCentroids(categoryRows, 200);

  const weights: Record<string, number> = {};
  lr.weights.forEach((w, i) => {
    const r = round(w, 4);
    if (r !== 0) weights[i] = r;
  });
  const draft: ModelArtefact = {
    format: 'scamlr',
    version: 1,
    id: 'local:scamlr-v1',
    hashBits: SPACE.hashBits,
    cues: [...CUE_NAMES],
    bias: round(lr.bias, 4),
    weights,
    platt: { a: 1, b: 0 },
    categories: [...centroids].map(([category, centroid]) => ({ category, centroid })),
    minCategorySimilarity: 0.08,
    // No evidence at all is a clean call whatever its style, and style must not rank calls either: on
    // sources it never saw, the model's style-only scores put honest calls above missed scams (AUC).
    styleCap: 0.1,
    // Neither a request nor a decisive cue: suspicious at most, like the rules without a request or threat.
    singleCueCap: 0.45,
    assuranceCap: 0.25,
    oneTacticCap: 0.45,
    trained: {},
  };
  const uncalibrated = new LocalModel(draft);
  const calMargins = calibration.map((e) => uncalibrated.margin(callerText(e)));
  const calYs = calibration.map((e) => (e.label === 'scam' ? 1 : 0) as 0 | 1);
  const platt = fitPlatt(calMargins, calYs);
  draft.platt = { a: round(platt.a, 4), b: round(platt.b, 4) };
  const model = new LocalModel(draft);
  return { draft, model, calMargins, calYs };
}

function countBy(examples: Example[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const e of examples) out[`${e.source}:${e.label}`] = (out[`${e.source}:${e.label}`] ?? 0) + 1;
  return out;
}

function rate(scores: number[], pred: (s: number) => boolean): number {
  return scores.length ? round(scores.filter(pred).length / scores.length, 4) : 0;
}

main();
