import { expect } from 'chai';
import type { SessionEvent } from '../../../src/domain/events.js';
import type { Frame } from '../../../src/domain/frames.js';
import type { Assessment } from '../../../src/domain/verdict.js';
import { filterPipeline } from '../../../pipelines/filter.js';
import { finalAnalysis } from '../../../pipelines/final-analysis.js';
import { fakeLlm, fakeStore, fakeStt, KEY, startSession, type RunningSession } from './fakes.js';
import { VirtualClock } from './virtual-clock.js';

/*
 * The live filter graph end to end in virtual time: frames in, events out, through fake ports. The
 * same graph the socket and SIP transports run, without a server.
 */

const BENIGN = [
  'Hello, this is Dana from the dental office on Main Street. I am calling to confirm your cleaning appointment for Thursday at ten.',
  'If that time does not suit you, just call us back and we can find another morning later in the month that works better for you.',
];
const SCAM =
  'This is the IRS. There is a warrant for your arrest. Pay now with gift cards and call me back at two oh two five five five zero one nine three.';
const TAX: Assessment = { score: 0.8, category: 'Tax Collection', tactics: ['threat'], signals: [] };

const text = (t: string): Frame => ({ kind: 'text', track: 'inbound', text: t, final: true, endOfTurn: true });
const types = (s: RunningSession): string[] => s.events.map((e) => e.event.type);
const ofType = <T extends SessionEvent['type']>(s: RunningSession, type: T) =>
  s.events.filter((e): e is { at: number; event: Extract<SessionEvent, { type: T }> } => e.event.type === type);

describe('live filter graph (virtual time, fake ports)', () => {
  it('scores the caller with the model on the 30 s cadence and sends the verdicts worth sending', async () => {
    const clock = new VirtualClock();
    const llm = fakeLlm(clock.scheduler, { live: (_i, n) => ({ ...TAX, score: n === 1 ? 0.6 : 0.95 }) });
    const s = startSession(filterPipeline, clock.scheduler, { store: fakeStore(100), llm });
    await clock.advance(1_000);
    s.frames$.next(text(BENIGN[0]!));
    await clock.advance(39_000);
    s.frames$.next(text(BENIGN[1]!));
    await clock.advance(30_000);

    // The benign lines give the rules nothing to send; the model is asked at 30 s and 60 s, each time
    // with 120 new characters of caller speech behind it.
    expect(llm.liveCalls.map((c) => c.at)).to.deep.equal([30_000, 60_000]);
    expect(llm.liveCalls[1]!.input.utterances.map((u) => u.text)).to.deep.equal(BENIGN);
    const verdicts = ofType(s, 'verdict');
    expect(verdicts.map((v) => [v.at, v.event.verdict.score, v.event.verdict.level])).to.deep.equal([
      [30_000, 0.6, 'likely_scam'],
      [60_000, 0.95, 'scam'],
    ]);
    expect(ofType(s, 'transcript.line').map((l) => [l.at, l.event.speaker])).to.deep.equal([
      [1_000, 'caller'],
      [40_000, 'caller'],
    ]);
    expect(s.isDone()).to.equal(false);
  });

  it('a caller who says too little between ticks is not sent to the model', async () => {
    const clock = new VirtualClock();
    const llm = fakeLlm(clock.scheduler, { live: () => TAX });
    const s = startSession(filterPipeline, clock.scheduler, { store: fakeStore(100), llm });
    s.frames$.next(text('Hello?'));
    await clock.advance(95_000);
    expect(llm.liveCalls).to.deep.equal([]);
    expect(ofType(s, 'verdict')).to.deep.equal([]);
  });

  it('on a stop: the final analysis, the record, then session.ended last and completion', async () => {
    const clock = new VirtualClock();
    const store = fakeStore(100);
    const llm = fakeLlm(clock.scheduler, {
      live: () => TAX,
      analyze: () => ({ ...TAX, score: 0.97, summary: 'An IRS impersonation.', intel: { names: ['Officer Smith'] } }),
    });
    const s = startSession(filterPipeline, clock.scheduler, { store, llm });
    await clock.advance(2_000);
    s.frames$.next(text(SCAM));
    await clock.advance(8_000);
    s.frames$.next({ kind: 'stop', reason: 'stop' });
    await clock.advance(1_000);

    // The rules flag the scam at once; the model never ticked; the final analysis runs at the stop.
    expect(types(s)).to.deep.equal(['session.started', 'transcript.line', 'verdict', 'session.ended']);
    expect(ofType(s, 'verdict')[0]!.at).to.equal(2_000);
    expect(llm.liveCalls).to.deep.equal([]);
    expect(llm.analyses.map((a) => [a.at, a.input.callerText])).to.deep.equal([[10_000, SCAM]]);
    const ended = ofType(s, 'session.ended')[0]!;
    expect(ended.at).to.equal(10_000);
    expect(ended.event).to.deep.include({ duration_seconds: 10, reported: false, reported_numbers: 0 });
    // The model's analysis is part of the final verdict (its summary, its intel), strong rules under it.
    expect(ended.event.verdict).to.deep.include({
      level: 'scam',
      category: 'Tax Collection',
      summary: 'An IRS impersonation.',
    });
    expect(ended.event.verdict.score).to.be.at.least(0.97);
    expect(ended.event.intel.names).to.deep.equal(['Officer Smith']);
    expect(ended.event.transcript).to.equal(`caller: ${SCAM}`);
    expect(s.isDone()).to.equal(true);
    expect(store.records.at(-1)).to.deep.include({
      state: 'ended',
      key_id: KEY.id,
      score: ended.event.verdict.score,
      turns: 1,
    });
  });

  it('bounds the final analysis at 20 s: the rules verdict stands and the client is told why', async () => {
    const clock = new VirtualClock();
    const store = fakeStore(100);
    const llm = fakeLlm(clock.scheduler, { live: () => TAX });
    const s = startSession(filterPipeline, clock.scheduler, { store, llm });
    s.frames$.next(text(SCAM));
    s.frames$.next({ kind: 'stop', reason: 'stop' });
    await clock.advance(19_000);
    expect(s.isDone(), 'still analysing at 19 s').to.equal(false);
    await clock.advance(2_000);
    expect(types(s).slice(-2)).to.deep.equal(['session.error', 'session.ended']);
    const ended = ofType(s, 'session.ended')[0]!;
    expect(ended.at).to.equal(20_000);
    const rulesOnly = await finalAnalysis(
      { utterances: [], callerText: SCAM, product: 'filter' },
      null,
      new AbortController().signal,
    );
    expect(ended.event.verdict).to.deep.equal(rulesOnly.verdict);
    expect(ofType(s, 'session.error')[0]!.event.error).to.match(/longer than 20 s/);
    expect(s.isDone()).to.equal(true);
  });

  it('reports a model refusal as session.error and goes on scoring', async () => {
    const clock = new VirtualClock();
    const llm = fakeLlm(clock.scheduler, {
      live: (_i, n) => (n === 1 ? new Error('fake:model refused: throttled') : TAX),
    });
    const s = startSession(filterPipeline, clock.scheduler, { store: fakeStore(100), llm });
    s.frames$.next(text(BENIGN[0]!));
    await clock.advance(31_000);
    s.frames$.next(text(BENIGN[1]!));
    await clock.advance(30_000);
    expect(ofType(s, 'session.error').map((e) => [e.at, e.event.error, e.event.text])).to.deep.equal([
      [30_000, 'fake:model refused: throttled', 'live model scoring failed; rule scoring continues'],
    ]);
    expect(ofType(s, 'verdict').map((v) => [v.at, v.event.verdict.score])).to.deep.equal([[60_000, 0.8]]);
  });

  it('ends the session at the 60-minute limit, having charged each started minute after the first', async () => {
    const clock = new VirtualClock();
    const store = fakeStore(1_000_000);
    const s = startSession(filterPipeline, clock.scheduler, { store });
    s.frames$.next(text(BENIGN[0]!));
    await clock.advance(60 * 60_000 - 1);
    expect(s.isDone(), 'still running just before the limit').to.equal(false);
    await clock.advance(1_000);
    const ended = ofType(s, 'session.ended')[0]!;
    expect(ended.at).to.equal(60 * 60_000);
    expect(ended.event.duration_seconds).to.equal(3600);
    expect(s.isDone()).to.equal(true);
    expect(store.debits).to.have.length(59);
    expect(store.debits.every((d) => d.ok && d.keyId === KEY.id)).to.equal(true);
  });

  it('ends the session when a minute can no longer be paid for', async () => {
    const clock = new VirtualClock();
    const store = fakeStore(0);
    const s = startSession(filterPipeline, clock.scheduler, { store });
    await clock.advance(59_000);
    expect(s.isDone()).to.equal(false);
    await clock.advance(2_000);
    expect(ofType(s, 'session.ended').map((e) => e.at)).to.deep.equal([60_000]);
    expect(store.debits.map((d) => d.ok)).to.deep.equal([false]);
  });

  it('transcribes the caller audio through the speech-to-text port, numbers written as digits', async () => {
    const clock = new VirtualClock();
    const stt = fakeStt(['call me back at two oh two five five five zero one nine three']);
    const s = startSession(filterPipeline, clock.scheduler, { store: fakeStore(100), stt }, { language: 'en-US' });
    s.frames$.next({ kind: 'audio', track: 'inbound', data: new Uint8Array(640) });
    await clock.advance(1_000);
    s.frames$.next({ kind: 'stop', reason: 'stop' });
    await clock.advance(1_000);
    expect(ofType(s, 'transcript.line').map((l) => l.event.text)).to.deep.equal(['call me back at 2025550193']);
    expect(stt.asked).to.deep.equal([{ sampleRate: 16000, language: 'en-US', sourceRate: 16000 }]);
    expect(s.isDone()).to.equal(true);
  });
});
