/*
 * Leave-one-source-out: for each labelled source, fit on every other source and score the one left
 * out. A source is a way calls were collected (FTC robocalls, Switchboard, a bank's contact centre,
 * our own written calls); a scorer that only learnt one source's style shows it here and nowhere
 * else. The pooled predictions (each record scored by the fold that never saw its source) make the
 * cross-source figures of record.
 */
import type { EvalRecord } from './datasets.js';
import { evaluate, type EvalReport, type Prediction } from './evaluate.js';

export interface Fold {
  /** The source left out and scored. */
  source: string;
  /** Records fitted on (every other source). */
  trainedOn: number;
  /** What the fold fitted, for the table (e.g. the calibration's scale and bias). */
  note: string;
}

export interface CrossSourceReport {
  folds: Fold[];
  /** Every record scored by the fold that left its source out. */
  pooled: EvalReport;
  predictions: Prediction[];
}

/** A scorer fitted on some records: its predictor and a line saying what was fitted. */
export interface Fitted {
  predict: (r: EvalRecord) => Prediction | Promise<Prediction>;
  note: string;
}

export async function leaveOneSourceOut(
  records: readonly EvalRecord[],
  fit: (trainOn: readonly EvalRecord[]) => Fitted | Promise<Fitted>,
): Promise<CrossSourceReport> {
  const sources = [...new Set(records.map((r) => r.source))].sort();
  const predictions = new Array<Prediction>(records.length);
  const folds: Fold[] = [];
  for (const source of sources) {
    const trainOn = records.filter((r) => r.source !== source);
    const fitted = await fit(trainOn);
    folds.push({ source, trainedOn: trainOn.length, note: fitted.note });
    for (let i = 0; i < records.length; i++) {
      if (records[i]!.source === source) predictions[i] = await fitted.predict(records[i]!);
    }
  }
  const index = new Map(records.map((r, i) => [r, i]));
  const pooled = await evaluate(records, (r) => predictions[index.get(r)!]!);
  return { folds, pooled, predictions };
}

const pct = (x: number) => (Number.isNaN(x) ? 'n/a' : `${(x * 100).toFixed(1)} %`);

/** The figures of record: per source left out, then pooled over every fold. */
export function formatCrossSource(title: string, r: CrossSourceReport): string {
  const p = r.pooled;
  const lines = [`### ${title}`, ''];
  lines.push('| source left out (scored) | label | n | fitted on | fold fit | ≥ likely_scam | scam | max score |');
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const s of p.bySource) {
    const fold = r.folds.find((f) => f.source === s.source);
    lines.push(
      `| ${s.source} | ${s.label} | ${s.n} | ${fold?.trainedOn ?? '?'} | ${fold?.note ?? ''} | ${pct(s.likelyOrAbove)} | ${pct(s.scamLevel)} | ${s.maxScore.toFixed(3)} |`,
    );
  }
  lines.push('', '| pooled over folds | value |', '|---|---|');
  lines.push(`| transcripts | ${p.n} (${p.scam} scam, ${p.legit} honest) |`);
  lines.push(`| ROC AUC | ${p.auc.toFixed(4)} |`);
  lines.push(`| honest calls at ≥ \`likely_scam\` | ${pct(p.atLikely.fpr)} (${p.atLikely.fp}) |`);
  lines.push(`| honest calls at \`scam\` | ${pct(p.atScam.fpr)} (${p.atScam.fp}) |`);
  lines.push(`| scams at ≥ \`likely_scam\` | ${pct(p.atLikely.recall)} (${p.atLikely.tp}) |`);
  lines.push(`| scams at \`scam\` | ${pct(p.atScam.recall)} (${p.atScam.tp}) |`);
  lines.push(
    `| category top-1 on labelled scams | ${pct(p.categories.accuracy)} (${p.categories.correct}/${p.categories.labelled}) |`,
  );
  return lines.join('\n');
}
