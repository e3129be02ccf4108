import fs from 'node:fs';
import { expect } from 'chai';
import { readFixture } from '../../helpers/fixtures.js';
import { finalAnalysis } from '../../../pipelines/final-analysis.js';
import { CATEGORIES, type Category } from '../../../src/domain/categories.js';
import { createLocalProvider } from '../../../src/providers/llm/local/provider.js';
import { callerText, parseTranscript } from '../../../src/rules/index.js';
import { STORIES, settleSubject, storySubjects } from '../../../src/rules/subjects.js';

const CHARITY =
  'Hi, this is Mark with the Firefighters Relief Fund. Families of fallen firefighters need your help. Can we count on a donation today?';
const MOVING =
  'Hello, this is a message from Reliable Movers. We noticed you may be moving soon. We can lock in a low rate for your move if you book today with a small deposit. Call us back.';
const WARRANTY =
  'This is a courtesy call from your home protection plan provider. Your coverage is about to end. Press 1 to renew now.';
const NO_STORY =
  'Hello, this is a message for you. Please call us back today at your earliest convenience. Press 1 now.';

describe('rules/subjects: a weak call gets the subject its story supports, or Other', () => {
  it('a weak pitch proposed as Rental (or any other nearest guess) gets its own story', () => {
    expect(settleSubject(CHARITY, 0.45, 'Rental')).to.equal('Charity');
    expect(settleSubject(MOVING, 0.45, 'Rental')).to.equal('Moving');
    expect(settleSubject(WARRANTY, 0.45, 'Rental')).to.equal('Warranties & Protection Plans');
  });

  it('a weak call that tells no story is Other, and a call below suspicious is none', () => {
    expect(settleSubject(NO_STORY, 0.45, 'Rental')).to.equal('Other');
    expect(settleSubject(NO_STORY, 0.45, 'Scammers')).to.equal('Other');
    expect(settleSubject(CHARITY, 0.2, 'Charity')).to.equal('none');
  });

  it('a weak call keeps a proposal its story supports, even when another story comes first', () => {
    const text = 'We are calling about your car warranty; press 1 for a free cruise.';
    expect(storySubjects(text)).to.deep.equal(['Travel/Vacation/Timeshare', 'Warranties & Protection Plans']);
    expect(settleSubject(text, 0.45, 'Warranties & Protection Plans')).to.equal('Warranties & Protection Plans');
  });

  it('a strong call keeps a subject its story supports; an unsupported one or a catch-all gives way to a story', () => {
    const bank = 'This is the fraud department of your bank, there are unauthorized charges on your card.';
    expect(settleSubject(bank, 0.9, 'Bank/Credit Card Company Imposter')).to.equal('Bank/Credit Card Company Imposter');
    expect(settleSubject(CHARITY, 0.9, 'Bank/Credit Card Company Imposter')).to.equal('Charity');
    expect(settleSubject(MOVING, 0.9, 'Scammers')).to.equal('Moving');
    expect(settleSubject(MOVING, 0.9, 'Phishing')).to.equal('Moving');
  });

  it('a strong call that tells no story keeps what its evidence chose', () => {
    expect(settleSubject(NO_STORY, 0.9, 'Rental')).to.equal('Rental');
    expect(settleSubject(NO_STORY, 0.9, 'Scammers')).to.equal('Scammers');
    expect(settleSubject(NO_STORY, 0.9, 'Phishing')).to.equal('Phishing');
    expect(settleSubject(NO_STORY, 0.9, 'none')).to.equal('Scammers');
  });

  it('the final analysis (rules and the embedded model) names weak moving and warranty pitches by their story', async () => {
    const llm = createLocalProvider();
    const subjectOf = async (text: string) => {
      const utterances = parseTranscript(text);
      const input = { utterances, callerText: callerText(utterances), product: 'scan' as const };
      return (await finalAnalysis(input, llm, new AbortController().signal)).verdict;
    };
    const moving = await subjectOf(MOVING);
    expect(moving.score).to.be.within(0.3, 0.6);
    expect(moving.category).to.equal('Moving');
    const movers = await subjectOf(
      'Hello, this is a reminder about your upcoming move. Our movers need a deposit by Friday to keep your date. Call us back at 800-555-0199.',
    );
    expect(movers.category).to.equal('Moving');
    expect((await subjectOf(WARRANTY)).category).to.equal('Warranties & Protection Plans');
  });
});

describe('rules/subjects: the story rules', () => {
  interface Row {
    id: string;
    category?: string;
    transcript?: string;
    text?: string;
  }
  const labelled = ['scam-calls.jsonl', 'multi-turn-scams.jsonl', 'phrase-calls.jsonl'].flatMap((f) =>
    readFixture<Row>(f).filter((r) => r.category),
  );

  it('every labelled written scam call, told weakly, gets its labelled subject from its story alone', () => {
    expect(labelled.length).to.be.at.least(30);
    const wrong = labelled
      .map((r) => ({
        r,
        got: settleSubject(callerText(parseTranscript(r.transcript ?? r.text ?? '')), 0.45, 'Scammers'),
      }))
      .filter(({ r, got }) => got !== r.category)
      .map(({ r, got }) => `${r.id}: ${got}`);
    expect(wrong).to.deep.equal([]);
  });

  it('covers every subject a call’s words can name; the rest are fallbacks, documented as such', () => {
    const told = new Set(STORIES.map(([c]) => c));
    const fallbacks: Category[] = ['No Subject Provided', 'Hang Up', 'Scammers', 'Company', 'Other'];
    for (const c of CATEGORIES) expect(told.has(c) || fallbacks.includes(c), c).to.equal(true);
    const doc = fs.readFileSync(new URL('../../../docs/rules.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## Complaint subjects'));
    for (const c of CATEGORIES) expect(section, c).to.include(`\`${c}\``);
  });

  it('an arrest warrant is no warranty, and paying in crypto is not a crypto story when an agency demands it', () => {
    expect(storySubjects('there is a warrant for your arrest')).to.not.include('Warranties & Protection Plans');
    expect(settleSubject('This is the sheriff, pay the fine at a Bitcoin ATM.', 0.45, 'Scammers')).to.equal(
      'Calls pretending to be government, businesses, or family and friends',
    );
  });

  it('stays linear on pathological input', () => {
    const inputs = ['loan '.repeat(20_000), 'ceo '.repeat(20_000), 'credit score '.repeat(10_000), 'a'.repeat(100_000)];
    for (const text of inputs) {
      const t0 = process.hrtime.bigint();
      storySubjects(text);
      expect(Number(process.hrtime.bigint() - t0) / 1e6).to.be.below(2000);
    }
  });
});
