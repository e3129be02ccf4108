import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Category } from '../domain/categories.js';
import { fnv1a, isFinal, loadCorpus, type Example } from './split.js';

/**
 * Tuning = the corpus split's train + calibration parts; holdout = its test part, never tuned on;
 * final = the part of every source kept untouched until the end (split.ts `isFinal`), scored last.
 */
export type EvalSplit = 'tune' | 'holdout' | 'final';

/** One labelled transcript, with the group that decides its split. */
export interface EvalRecord {
  id: string;
  source: string;
  label: 'scam' | 'legit';
  /** The transcript as stored (may carry `speaker:` labels). */
  transcript: string;
  /** Campaign (robocalls) or conversation id (legit): records of one group share a split. */
  group: string;
  split: EvalSplit;
  /** Complaint subject, where one can be derived honestly (see ROBOCALL_TAG_CATEGORY). */
  category?: Category;
  kind?: string;
}

const GOV: Category = 'Calls pretending to be government, businesses, or family and friends';
const DEBT: Category = 'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)';

/**
 * The robocall set has no category column. 67 recordings carry an ITG/FTC campaign name in their file
 * name; each name was mapped to a complaint subject by reading the name against the spec's category
 * list and disambiguation notes (decided before scoring anything). The label then spreads to every
 * member of that recording's campaign cluster; clusters whose names map to different subjects stay
 * unlabelled.
 */
export const ROBOCALL_TAG_CATEGORY: ReadonlyArray<[RegExp, Category]> = [
  [/^SSA|GovtImpers|^CBP|^Legal|^LegalDept|^FedReserv/i, GOV],
  [/^Amazon|^Authorized-Order|^Discount-DirecTV/i, GOV],
  [/^Chinese-(PackageDelivery|ExpressReturn)/i, GOV],
  [/^AutoWarranty/i, 'Warranties & Protection Plans'],
  [/^CCIRR|^CreditCard-(RateReduction|ZeroInterest)|^StudentLoan/i, DEBT],
  [/^DebtRelief-ZeroTax/i, 'Tax Collection'],
  [/^Computer-Hijack|^TechSupport/i, 'Computer & Technical Support'],
  [/^Utility/i, 'Utility'],
  [/^Medicare/i, 'Medical & Prescriptions'],
  [/^CashApp/i, 'Bank/Credit Card Company Imposter'],
  [/^Travel/i, 'Travel/Vacation/Timeshare'],
];

export function tagCategory(tag: string): Category | undefined {
  for (const [re, cat] of ROBOCALL_TAG_CATEGORY) if (re.test(tag)) return cat;
  return undefined;
}

interface JsonlRow {
  id?: string;
  label?: string;
  transcript?: string;
  text?: string;
  kind?: string;
  category?: string;
}

/** Extra labelled sets in the same JSONL shape (our own hard negatives and written scam calls). */
export function loadJsonl(file: string, source: string): EvalRecord[] {
  const out: EvalRecord[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, n) => {
      if (!line.trim()) return;
      const row = JSON.parse(line) as JsonlRow;
      const id = row.id ?? `${source}-${n}`;
      const rec: EvalRecord = {
        id,
        source,
        label: row.label === 'scam' ? 'scam' : 'legit',
        transcript: row.transcript ?? row.text ?? '',
        group: `${source}:${id}`,
        // A file named *-holdout is a written set never tuned on: all of it is the final part.
        split:
          source.endsWith('-holdout') || isFinal(source, id)
            ? 'final'
            : fnv1a(`${source}:${id}`) % 100 < 25
              ? 'holdout'
              : 'tune',
      };
      if (row.kind) rec.kind = row.kind;
      if (row.category) rec.category = row.category as Category;
      out.push(rec);
    });
  return out;
}

/** Spreads each campaign's filename tag to its whole group, when the group's tags agree. */
function groupCategories(examples: readonly Example[]): Map<string, Category> {
  const cats = new Map<string, Set<Category>>();
  for (const e of examples) {
    if (e.source !== 'robocall' || !e.tag) continue;
    const c = tagCategory(e.tag);
    if (!c) continue;
    cats.set(e.group, (cats.get(e.group) ?? new Set<Category>()).add(c));
  }
  const out = new Map<string, Category>();
  for (const [g, set] of cats) if (set.size === 1) out.set(g, [...set][0]!);
  return out;
}

export const SOURCE_NAMES: Record<Example['source'], string> = {
  harpervalley: 'harper-valley-bank',
  robocall: 'ncsu-robocall-ftc-ppone',
  sgd: 'sgd-schema-guided',
  taskmaster4: 'taskmaster4-coffee',
  switchboard: 'switchboard-swda',
};

/** The shared corpus (with its split) plus extra JSONL files, with robocall categories derived from tags. */
export function loadDatasets(dataDir: string, extra: readonly string[] = []): EvalRecord[] {
  if (!existsSync(dataDir)) throw new Error(`data directory not found: ${dataDir}`);
  const corpus = loadCorpus(dataDir);
  const categories = groupCategories(corpus);
  const out: EvalRecord[] = corpus.map((e) => {
    const rec: EvalRecord = {
      id: e.id,
      source: SOURCE_NAMES[e.source],
      label: e.label,
      transcript: e.transcript,
      group: `${e.source}:${e.group}`,
      split: e.split === 'test' ? 'holdout' : e.split === 'final' ? 'final' : 'tune',
    };
    if (e.language) rec.kind = e.language === 'zh' ? 'robocall_zh' : 'robocall';
    const cat = categories.get(e.group);
    if (cat) rec.category = cat;
    return rec;
  });
  // The bank calls are scored a second time with the customer as the caller: both must stay clean.
  for (const e of corpus) {
    if (e.source !== 'harpervalley') continue;
    const swapped = e.transcript.replace(/^(caller|callee):/gm, (_, r: string) =>
      r === 'caller' ? 'callee:' : 'caller:',
    );
    const twin = out.find((r) => r.id === e.id)!;
    out.push({ ...twin, id: `${e.id}@customer`, transcript: swapped, kind: 'customer_as_caller' });
    twin.kind = 'agent_as_caller';
  }
  for (const file of extra) if (existsSync(file)) out.push(...loadJsonl(file, path.basename(file, '.jsonl')));
  return out;
}
