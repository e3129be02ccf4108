import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { parseArgs, run, slice, writeSection } from '../../../src/cli/eval.js';
import { calibrationPoints } from '../../../src/eval/calibrate.js';
import { loadDatasets, tagCategory } from '../../../src/eval/datasets.js';
import { evaluate, formatReport, rulesThroughput } from '../../../src/eval/evaluate.js';
import { formatCrossSource, leaveOneSourceOut } from '../../../src/eval/cross-source.js';
import { isFinal } from '../../../src/eval/split.js';
import { atThreshold, rocAuc } from '../../../src/eval/metrics.js';

/** A miniature copy of the shared data layout: robocalls with campaign clusters, and legitimate dialogues. */
function miniData(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-eval-'));
  const robo = path.join(dir, 'ncsu-robocall-ftc-ppone');
  fs.mkdirSync(robo);
  const rows = [
    [
      '1',
      'en',
      'This is the Social Security Administration. Your social security number has been suspended. Press 1 to speak with an officer.',
      '7',
      'SSA-Suspended',
    ],
    [
      '2',
      'en',
      'Your social security number has been suspended due to fraudulent activity in Texas. Press 1 now, this is your final notice.',
      '7',
      '',
    ],
    [
      '3',
      'en',
      "We've been trying to reach you about your car's extended warranty. Press 1 to speak with a warranty specialist.",
      '9',
      'AutoWarrantyExtend',
    ],
    [
      '4',
      'en',
      'Your power will be disconnected within 30 minutes due to a past due balance. Press 1 to pay now.',
      '',
      '',
    ],
    [
      '5',
      'en',
      'Your power will be disconnected within 30 minutes due to a past due balance. Press 1 to pay now.',
      '',
      '',
    ],
  ];
  const csv = [
    'recording_key,language,transcript,campaign_cluster_id,filename_campaign_tag',
    ...rows.map((r) => r.map((f) => `"${f.replace(/"/g, '""')}"`).join(',')),
  ];
  fs.writeFileSync(path.join(robo, 'transcripts_with_clusters.csv'), csv.join('\n') + '\n');
  const legit = (folder: string, lines: string[]) => {
    fs.mkdirSync(path.join(dir, folder));
    fs.writeFileSync(
      path.join(dir, folder, 'calls.jsonl'),
      lines.map((t, i) => JSON.stringify({ id: `${folder}-${i}`, label: 'legit', transcript: t })).join('\n') + '\n',
    );
  };
  legit('switchboard-swda', [
    'A: Do you have pets?\nB: Two cats, they are great.',
    'A: I think taxes are too high.\nB: Maybe, yes.',
  ]);
  legit('sgd-schema-guided', ['user: Book a table for two at 7.\nsystem: Done, your table is booked.']);
  legit('taskmaster4-coffee', ['customer: A large latte please.\nagent: Coming right up.']);
  return dir;
}

describe('eval: metrics', () => {
  it('ROC AUC: perfect, inverted, ties', () => {
    expect(
      rocAuc([
        { scam: true, score: 0.9 },
        { scam: false, score: 0.1 },
      ]),
    ).to.equal(1);
    expect(
      rocAuc([
        { scam: true, score: 0.1 },
        { scam: false, score: 0.9 },
      ]),
    ).to.equal(0);
    expect(
      rocAuc([
        { scam: true, score: 0.5 },
        { scam: false, score: 0.5 },
      ]),
    ).to.equal(0.5);
    expect(
      rocAuc([
        { scam: true, score: 0.8 },
        { scam: true, score: 0.3 },
        { scam: false, score: 0.5 },
      ]),
    ).to.equal(0.5);
  });

  it('precision, recall and FPR at a threshold', () => {
    const r = atThreshold(
      [
        { scam: true, score: 0.9 },
        { scam: true, score: 0.5 },
        { scam: false, score: 0.86 },
        { scam: false, score: 0.1 },
      ],
      0.85,
    );
    expect(r).to.include({ tp: 1, fp: 1, fn: 1, tn: 1, precision: 0.5, recall: 0.5, fpr: 0.5 });
  });
});

describe('eval: data sets and split', () => {
  let dir: string;
  before(() => {
    dir = miniData();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads every source, drops exact duplicate robocalls and keeps a campaign in one split', () => {
    const recs = loadDatasets(dir);
    const robo = recs.filter((r) => r.source === 'ncsu-robocall-ftc-ppone');
    expect(robo).to.have.length(4); // rows 4 and 5 are one call
    const ssa = robo.filter((r) => /social security/i.test(r.transcript));
    expect(new Set(ssa.map((r) => r.group)).size).to.equal(1);
    expect(new Set(ssa.map((r) => r.split)).size).to.equal(1);
    expect(recs.filter((r) => r.label === 'legit')).to.have.length(4);
  });

  it('derives categories from campaign tags and spreads them over the campaign, and only there', () => {
    const robo = loadDatasets(dir).filter((r) => r.source === 'ncsu-robocall-ftc-ppone');
    const ssa = robo.filter((r) => /social security/i.test(r.transcript));
    expect(ssa.map((r) => r.category)).to.deep.equal([
      'Calls pretending to be government, businesses, or family and friends',
      'Calls pretending to be government, businesses, or family and friends',
    ]);
    expect(robo.find((r) => /power/.test(r.transcript))!.category).to.equal(undefined);
    expect(tagCategory('StudentLoan-HardshipProgram')).to.equal(
      'Reducing Your Debt (Credit Cards, Mortgage, Student Loans)',
    );
    expect(tagCategory('DebtRelief-ZeroTax')).to.equal('Tax Collection');
    expect(tagCategory('Unknown-Thing')).to.equal(undefined);
  });

  it('a limited slice is deterministic and keeps every source', () => {
    const recs = loadDatasets(dir);
    const a = slice(recs, 4);
    expect(a).to.have.length(4);
    expect(slice(recs, 4).map((r) => r.id)).to.deep.equal(a.map((r) => r.id));
    expect(new Set(a.map((r) => r.source)).size).to.be.at.least(3);
  });

  it('every source weighs the same within its label in the calibration fit, written calls included', () => {
    const recs = [
      ...loadDatasets(dir).map((r) => ({ ...r, split: 'tune' as const })),
      {
        id: 'hn',
        source: 'hard-negatives',
        label: 'legit' as const,
        transcript: 'hi',
        group: 'g',
        split: 'tune' as const,
      },
    ];
    const pts = calibrationPoints(recs);
    const total = new Map<string, number>();
    recs.forEach((r, i) => total.set(r.source, (total.get(r.source) ?? 0) + pts[i]!.weight));
    const legit = [...new Set(recs.filter((r) => r.label === 'legit').map((r) => r.source))];
    expect(legit).to.have.length(4);
    for (const s of legit) expect(total.get(s)).to.be.closeTo(total.get('hard-negatives')!, 1e-9);
    // Scams (one source here) weigh as much as all honest sources together.
    const honest = legit.reduce((a, s) => a + total.get(s)!, 0);
    expect(total.get('ncsu-robocall-ftc-ppone')).to.be.closeTo(honest, 1e-9);
  });

  it('a final part of every source is set aside by hash, and the bank calls are scored both ways round', () => {
    const bank = path.join(dir, 'harper-valley-bank');
    fs.mkdirSync(bank, { recursive: true });
    const calls = Array.from({ length: 40 }, (_, i) => ({
      id: `hv-${i}`,
      source: 'gridspace-stanford-harper-valley',
      label: 'legit',
      task: 'check_balance',
      lines: [
        { speaker: 'agent', text: 'thank you for calling harper valley national bank how can i help you' },
        { speaker: 'customer', text: 'i want to check my balance' },
      ],
    }));
    fs.writeFileSync(path.join(bank, 'calls.jsonl'), calls.map((c) => JSON.stringify(c)).join('\n') + '\n');
    try {
      const recs = loadDatasets(dir).filter((r) => r.source === 'harper-valley-bank');
      expect(recs).to.have.length(80);
      const agent = recs.find((r) => r.id === 'hv-0')!;
      const customer = recs.find((r) => r.id === 'hv-0@customer')!;
      expect(agent.transcript).to.match(/^caller: thank you for calling/);
      expect(customer.transcript).to.match(/^callee: thank you for calling/);
      expect(customer.group).to.equal(agent.group);
      expect(customer.split).to.equal(agent.split);
      const finals = recs.filter((r) => r.split === 'final').map((r) => r.id);
      expect(finals.length).to.be.within(2, 16);
      for (const id of finals) expect(isFinal('harpervalley', id.replace(/@customer$/, ''))).to.equal(true);
      expect(
        loadDatasets(dir)
          .filter((r) => r.split === 'final')
          .map((r) => r.id),
      ).to.include.members(finals);
    } finally {
      fs.rmSync(bank, { recursive: true, force: true });
    }
  });

  it('leave one source out scores each source only with a fit that never saw it', async () => {
    const recs = loadDatasets(dir);
    const seen: string[] = [];
    const report = await leaveOneSourceOut(recs, (trainOn) => {
      const sources = new Set(trainOn.map((r) => r.source));
      return {
        note: [...sources].sort().join(','),
        predict: (r) => {
          if (sources.has(r.source)) throw new Error(`${r.source} scored by a fold that saw it`);
          seen.push(r.id);
          return { score: r.label === 'scam' ? 0.9 : 0.1, category: 'none' };
        },
      };
    });
    expect(seen.sort()).to.deep.equal(recs.map((r) => r.id).sort());
    expect(report.folds.map((f) => f.source)).to.deep.equal([...new Set(recs.map((r) => r.source))].sort());
    expect(report.pooled.auc).to.equal(1);
    expect(formatCrossSource('t', report))
      .to.match(/source left out/)
      .and.match(/honest calls at ≥ `likely_scam`/);
  });

  it('scores a slice with the rules and reports every figure', async () => {
    const recs = loadDatasets(dir);
    const { scoreOnly, callerText, parseTranscript } = await import('../../../src/rules/index.js');
    const report = await evaluate(
      recs,
      (r) => scoreOnly(callerText(parseTranscript(r.transcript))),
      () =>
        rulesThroughput(
          recs.map((r) => r.transcript),
          scoreOnly,
          50,
        ),
    );
    expect(report.n).to.equal(8);
    expect(report.auc).to.equal(1);
    expect(report.atLikely.recall).to.equal(1);
    expect(report.atScam.fpr).to.equal(0);
    expect(report.categories.labelled).to.equal(3);
    expect(report.categories.accuracy).to.equal(1);
    expect(report.perSecond).to.be.greaterThan(0);
    const text = formatReport('mini', report);
    expect(text)
      .to.match(/ROC AUC/)
      .and.match(/category top-1/)
      .and.match(/transcripts per second/);
  });

  it('the command runs on a data dir and writes only its section of the results file', async () => {
    const results = path.join(dir, 'RESULTS.md');
    fs.writeFileSync(
      results,
      '# Results\n\n## Frame latency\n\nkeep me\n\n## Verdict quality\n\nold\n\n## Capacity\n\nkeep me too\n',
    );
    const logs: string[] = [];
    const orig = console.log;
    console.log = (...a: unknown[]) => void logs.push(a.join(' '));
    try {
      expect(await run([dir, '--split', 'all', '--no-extra', '--write', results])).to.equal(0);
    } finally {
      console.log = orig;
    }
    const out = fs.readFileSync(results, 'utf8');
    expect(out).to.match(/## Frame latency\n\nkeep me/);
    expect(out).to.match(/## Capacity\n\nkeep me too/);
    expect(out).to.not.match(/\nold\n/);
    expect(out).to.match(/## Verdict quality\n\n### all split, rules only/);
    expect(out)
      .to.match(/### Leave one source out/)
      .and.match(/### Final part/);
  });

  it('writeSection appends the section when the file has none', () => {
    const f = path.join(dir, 'R2.md');
    fs.writeFileSync(f, '# Results\n');
    writeSection(f, 'body');
    expect(fs.readFileSync(f, 'utf8')).to.equal('# Results\n\n## Verdict quality\n\nbody\n');
  });
});

describe('eval: arguments', () => {
  it('parses the options and rejects bad values', () => {
    const o = parseArgs(['/x', '--split', 'tune', '--limit', '50', '--llm', 'local']);
    expect(o).to.include({ dataDir: '/x', split: 'tune', limit: 50, llm: 'local' });
    expect(parseArgs(['--split', 'test'])).to.be.a('string');
    expect(parseArgs(['--limit', '0'])).to.be.a('string');
    expect(parseArgs(['--llm', 'gpt'])).to.be.a('string');
    expect(parseArgs(['--bogus'])).to.be.a('string');
    expect(parseArgs(['--form', 'recognised'])).to.include({ form: 'recognised' });
    expect(parseArgs(['--form', 'spoken'])).to.be.a('string');
  });

  it('refuses to calibrate on the holdout split', async () => {
    const errs: string[] = [];
    const orig = console.error;
    console.error = (...a: unknown[]) => void errs.push(a.join(' '));
    try {
      expect(await run(['--calibrate', '--split', 'holdout', '--no-extra', '--limit', '5'])).to.equal(2);
    } finally {
      console.error = orig;
    }
    expect(errs.join('\n')).to.match(/tuning split only/);
  });
});

describe('eval: a CI-sized slice of the shared data', function () {
  this.timeout(60_000);
  const shared = path.resolve(process.cwd(), '..', 'shared', 'data');

  it('runs the holdout slice end to end and meets the floor figures', async function () {
    if (!fs.existsSync(path.join(shared, 'ncsu-robocall-ftc-ppone'))) this.skip(); // the labelled data lives beside the repository
    const logs: string[] = [];
    const orig = console.log;
    console.log = (...a: unknown[]) => void logs.push(a.join(' '));
    try {
      expect(await run([shared, '--split', 'holdout', '--limit', '300'])).to.equal(0);
    } finally {
      console.log = orig;
    }
    const out = logs.join('\n');
    const auc = Number(/ROC AUC \(scam vs not\) \| ([\d.]+)/.exec(out)?.[1]);
    expect(auc).to.be.greaterThan(0.9);
    const fpr = Number(/reaching `scam` \(FPR\) \| ([\d.]+) %/.exec(out)?.[1]);
    expect(fpr).to.be.at.most(1);
  });
});
