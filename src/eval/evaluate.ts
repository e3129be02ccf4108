import type { VerdictCategory } from '../domain/categories.js';
import { LIKELY_SCAM_AT, SCAM_AT } from '../domain/levels.js';
import type { EvalRecord } from './datasets.js';
import { atThreshold, reliability, rocAuc, type AtThreshold } from './metrics.js';

export interface Prediction {
  score: number;
  category: VerdictCategory;
}

export interface EvalReport {
  n: number;
  scam: number;
  legit: number;
  auc: number;
  atScam: AtThreshold;
  atLikely: AtThreshold;
  /** Per source: size, and the share at ≥ likely_scam and at scam. */
  bySource: Array<{
    source: string;
    label: string;
    n: number;
    likelyOrAbove: number;
    scamLevel: number;
    maxScore: number;
  }>;
  categories: { labelled: number; correct: number; accuracy: number; confusion: Map<string, Map<string, number>> };
  reliability: ReturnType<typeof reliability>;
  /** Transcripts per second (one thread): of the rules alone when `throughput` is given, else of the whole run. */
  perSecond: number;
  /** Legitimate calls that reached `scam`, worst first (for reading, never for tuning on holdout). */
  worstLegit: Array<{ id: string; score: number }>;
  missedScams: Array<{ id: string; score: number }>;
}

/**
 * Rules throughput on one core: caller texts are extracted first, one warm-up pass runs, then passes
 * repeat for at least `minMs` of CPU time. The rate is per second of this process's CPU time, so a busy
 * machine (other processes on the same cores) does not distort it; GC threads count against it.
 */
export function rulesThroughput(texts: readonly string[], score: (t: string) => unknown, minMs = 1000): number {
  if (texts.length === 0) return NaN;
  for (const t of texts) score(t);
  let done = 0;
  const c0 = process.cpuUsage();
  let cpuMs = 0;
  while (cpuMs < minMs) {
    for (const t of texts) score(t);
    done += texts.length;
    const c = process.cpuUsage(c0);
    cpuMs = (c.user + c.system) / 1000;
  }
  return (done / cpuMs) * 1000;
}

export async function evaluate(
  records: readonly EvalRecord[],
  predict: (r: EvalRecord) => Prediction | Promise<Prediction>,
  throughput?: () => number,
): Promise<EvalReport> {
  const preds: Prediction[] = [];
  const t0 = process.hrtime.bigint();
  for (const r of records) preds.push(await predict(r));
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;

  const items = records.map((r, i) => ({ scam: r.label === 'scam', score: preds[i]!.score }));
  const sources = new Map<string, number[]>();
  records.forEach((r, i) =>
    sources.set(`${r.source}|${r.label}`, [...(sources.get(`${r.source}|${r.label}`) ?? []), i]),
  );
  const bySource = [...sources.entries()].map(([key, idx]) => {
    const [source, label] = key.split('|') as [string, string];
    const scores = idx.map((i) => preds[i]!.score);
    return {
      source,
      label,
      n: idx.length,
      likelyOrAbove: scores.filter((s) => s >= LIKELY_SCAM_AT).length / idx.length,
      scamLevel: scores.filter((s) => s >= SCAM_AT).length / idx.length,
      maxScore: Math.max(...scores),
    };
  });

  const confusion = new Map<string, Map<string, number>>();
  let labelled = 0;
  let correct = 0;
  records.forEach((r, i) => {
    if (r.label !== 'scam' || !r.category) return;
    labelled++;
    const got = preds[i]!.category;
    if (got === r.category) correct++;
    const row = confusion.get(r.category) ?? new Map<string, number>();
    row.set(got, (row.get(got) ?? 0) + 1);
    confusion.set(r.category, row);
  });

  return {
    n: records.length,
    scam: items.filter((x) => x.scam).length,
    legit: items.filter((x) => !x.scam).length,
    auc: rocAuc(items),
    atScam: atThreshold(items, SCAM_AT),
    atLikely: atThreshold(items, LIKELY_SCAM_AT),
    bySource,
    categories: { labelled, correct, accuracy: labelled ? correct / labelled : NaN, confusion },
    reliability: reliability(items),
    perSecond: throughput ? throughput() : records.length / Math.max(seconds, 1e-9),
    worstLegit: records
      .map((r, i) => ({ id: r.id, score: preds[i]!.score, legit: r.label === 'legit' }))
      .filter((x) => x.legit && x.score >= LIKELY_SCAM_AT)
      .sort((a, b) => b.score - a.score)
      .slice(0, 10)
      .map(({ id, score }) => ({ id, score })),
    missedScams: records
      .map((r, i) => ({ id: r.id, score: preds[i]!.score, scam: r.label === 'scam' }))
      .filter((x) => x.scam && x.score < LIKELY_SCAM_AT)
      .sort((a, b) => a.score - b.score)
      .slice(0, 10)
      .map(({ id, score }) => ({ id, score })),
  };
}

const pct = (x: number) => (Number.isNaN(x) ? 'n/a' : `${(x * 100).toFixed(1)} %`);

/** Short names for the confusion table. */
export function shortCategory(c: string): string {
  return c
    .replace('Calls pretending to be government, businesses, or family and friends', 'Imposter (gov/business/family)')
    .replace('Reducing Your Debt (Credit Cards, Mortgage, Student Loans)', 'Reducing Your Debt');
}

export function formatReport(title: string, r: EvalReport): string {
  const lines: string[] = [];
  lines.push(`### ${title}`, '');
  lines.push(`Transcripts: ${r.n} (${r.scam} scam, ${r.legit} legitimate)`, '');
  lines.push('| metric | value |', '|---|---|');
  lines.push(`| ROC AUC (scam vs not) | ${r.auc.toFixed(4)} |`);
  lines.push(`| precision at \`scam\` (≥ 0.85) | ${pct(r.atScam.precision)} |`);
  lines.push(`| recall at \`scam\` | ${pct(r.atScam.recall)} |`);
  lines.push(`| precision at \`likely_scam\` (≥ 0.6) | ${pct(r.atLikely.precision)} |`);
  lines.push(`| recall at ≥ \`likely_scam\` | ${pct(r.atLikely.recall)} |`);
  lines.push(`| legitimate calls reaching \`scam\` (FPR) | ${pct(r.atScam.fpr)} (${r.atScam.fp}) |`);
  lines.push(`| legitimate calls reaching ≥ \`likely_scam\` | ${pct(r.atLikely.fpr)} (${r.atLikely.fp}) |`);
  lines.push(
    `| category top-1 on labelled scam calls | ${pct(r.categories.accuracy)} (${r.categories.correct}/${r.categories.labelled}) |`,
  );
  lines.push(`| transcripts per second (one thread) | ${Math.round(r.perSecond).toLocaleString('en-US')} |`, '');
  lines.push('| source | label | n | ≥ likely_scam | scam | max score |', '|---|---|---|---|---|---|');
  for (const s of r.bySource) {
    lines.push(
      `| ${s.source} | ${s.label} | ${s.n} | ${pct(s.likelyOrAbove)} | ${pct(s.scamLevel)} | ${s.maxScore.toFixed(3)} |`,
    );
  }
  lines.push('', 'Reliability (mean score vs observed scam share per band):', '');
  lines.push('| band | n | mean score | scam share |', '|---|---|---|---|');
  for (const b of r.reliability) {
    lines.push(
      `| ${b.band} | ${b.n} | ${Number.isNaN(b.meanScore) ? 'n/a' : b.meanScore.toFixed(3)} | ${pct(b.scamShare)} |`,
    );
  }
  if (r.categories.labelled) {
    lines.push('', 'Category confusion (rows: derived label, columns: predicted):', '');
    const cols = [...new Set([...r.categories.confusion.values()].flatMap((m) => [...m.keys()]))].sort();
    lines.push(`| label \\ predicted | ${cols.map(shortCategory).join(' | ')} |`);
    lines.push(`|---|${cols.map(() => '---').join('|')}|`);
    for (const [label, row] of [...r.categories.confusion.entries()].sort()) {
      lines.push(`| ${shortCategory(label)} | ${cols.map((c) => row.get(c) ?? 0).join(' | ')} |`);
    }
  }
  return lines.join('\n');
}
