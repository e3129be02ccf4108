import { expect } from 'chai';
import { Subject } from 'rxjs';
import type { EndReason, Frame, OutboundFrame, Utterance } from '../../../src/domain/frames.js';
import { conversation, type ConversationDeps } from '../../../pipelines/honeypot/conversation.js';
import { createScriptedDialogue } from '../../../src/honeypot/dialogue/scripted.js';
import type { DialogueEngine } from '../../../src/honeypot/dialogue/types.js';
import { PERSONAS } from '../../../src/honeypot/personas.js';
import { seededRng } from '../../../src/honeypot/rng.js';
import { SPEC_TIMING } from '../../../pipelines/honeypot/timing.js';
import { ProviderError } from '../../../src/providers/errors.js';
import type { TextToSpeech } from '../../../src/providers/tts/types.js';
import { SteppedClock } from './virtual-time.js';

/** A voice that speaks 50 ms of tone per word at 16 kHz, and can be told to refuse. */
function toneVoice(refuse: (text: string) => boolean = () => false): TextToSpeech & { calls: string[] } {
  const calls: string[] = [];
  return {
    id: 'test:tone',
    calls,
    async synthesize(text) {
      calls.push(text);
      if (refuse(text)) throw new ProviderError('test', 'voice refused');
      const n = text.split(/\s+/).length * 800;
      const pcm = new Int16Array(n);
      for (let i = 0; i < n; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 300 * i) / 16000));
      return { pcm, sampleRate: 16000 };
    },
  };
}

function harness(over: Partial<ConversationDeps> = {}) {
  const clock = new SteppedClock();
  const persona = PERSONAS[0]!;
  const rng = seededRng(7);
  const heard$ = new Subject<Utterance>();
  const frames$ = new Subject<Frame>();
  const out: OutboundFrame[] = [];
  const ends: EndReason[] = [];
  const errors: Array<{ error: string; text: string }> = [];
  const lines: Utterance[] = [];
  const deps: ConversationDeps = {
    persona,
    engine: createScriptedDialogue({ rng }),
    fallback: createScriptedDialogue({ rng: seededRng(8) }),
    tts: toneVoice(),
    format: { encoding: 'mulaw', sampleRate: 8000 },
    scheduler: clock.scheduler,
    rng,
    timing: SPEC_TIMING,
    report: (error, text) => errors.push({ error, text }),
    outbound: (f) => out.push(f),
    end: (r) => ends.push(r),
    ...over,
  };
  let completed = false;
  const sub = conversation(deps, heard$, frames$).subscribe({
    next: (u) => lines.push(u),
    complete: () => (completed = true),
  });
  const callerSays = (text: string, endOfTurn = true): void => {
    frames$.next({ kind: 'text', track: 'inbound', text, final: true, endOfTurn });
    heard$.next({ role: 'caller', speaker: 'caller', text, at: clock.now });
  };
  return {
    clock,
    persona,
    heard$,
    frames$,
    out,
    ends,
    errors,
    lines,
    sub,
    callerSays,
    deps,
    isCompleted: () => completed,
  };
}

const audioFrames = (out: OutboundFrame[]) =>
  out.filter((f): f is Extract<OutboundFrame, { kind: 'audio' }> => f.kind === 'audio');

describe('honeypot conversation', () => {
  it('greets at once in the client encoding, 20 ms frames paced in real time, then a mark', async () => {
    const h = harness();
    await h.clock.advance(100);
    // The line joins the transcript once it has been heard whole, not when its audio is ready.
    expect(h.lines).to.deep.equal([]);
    const sentBy100 = audioFrames(h.out).length;
    // 3 lead frames, then one per 20 ms: about 8 by 100 ms, not the whole greeting at once.
    expect(sentBy100).to.be.within(6, 9);
    expect(audioFrames(h.out).every((f) => f.data.length === 160)).to.equal(true);
    await h.clock.advance(5000);
    const mark = h.out.findIndex((f) => f.kind === 'mark');
    expect(mark).to.be.greaterThan(0);
    expect(h.lines.map((l) => [l.speaker, l.text])).to.deep.equal([[h.persona.name, h.persona.greeting]]);
    // 11 words × 50 ms = 550 ms of speech → 28 frames (the last one short)
    expect(audioFrames(h.out).length).to.equal(Math.ceil((h.persona.greeting!.split(/\s+/).length * 0.05) / 0.02));
    h.sub.unsubscribe();
  });

  it('answers each caller turn: at once on end_of_turn, after a pause otherwise', async () => {
    const h = harness();
    await h.clock.advance(2000);
    const greetingFrames = audioFrames(h.out).length;
    h.callerSays('Hello, this is John from Microsoft technical support. Your computer has a virus.');
    await h.clock.advance(20);
    expect(audioFrames(h.out).length, 'the reply starts at once').to.be.above(greetingFrames);
    await h.clock.advance(3000);
    expect(h.lines).to.have.length(2);
    expect(h.lines[1]!.role).to.equal('persona');
    const replyFrames = audioFrames(h.out).length;
    h.callerSays('You need to download AnyDesk right now.', false);
    await h.clock.advance(1000);
    expect(audioFrames(h.out).length, 'no reply before the pause').to.equal(replyFrames);
    await h.clock.advance(400);
    expect(audioFrames(h.out).length).to.be.above(replyFrames);
    await h.clock.advance(5000);
    expect(h.lines).to.have.length(3);
    expect(h.lines[2]!.text).to.not.equal(h.lines[1]!.text);
    h.sub.unsubscribe();
  });

  it('clears queued speech when the caller talks over the persona (barge-in)', async () => {
    const h = harness();
    await h.clock.advance(100);
    const before = audioFrames(h.out).length;
    h.frames$.next({ kind: 'text', track: 'inbound', text: 'hey listen', final: false, endOfTurn: false });
    await h.clock.advance(2000);
    expect(h.out.filter((f) => f.kind === 'clear')).to.have.length(1);
    expect(audioFrames(h.out).length).to.equal(before);
    expect(h.out.some((f) => f.kind === 'mark')).to.equal(false);
    h.sub.unsubscribe();
  });

  it('keeps in the transcript only what was played of a line cut off by barge-in, and nothing of lines never played', async () => {
    const h = harness();
    await h.clock.advance(2000); // the greeting, whole
    h.callerSays('Hello, this is John from Microsoft technical support. Your computer has a virus.');
    h.callerSays('Hello? Are you there?'); // a second reply queued behind the first
    await h.clock.advance(200);
    h.frames$.next({ kind: 'text', track: 'inbound', text: 'stop talking', final: false, endOfTurn: false });
    await h.clock.advance(20);
    expect(h.out.filter((f) => f.kind === 'clear')).to.have.length(1);
    expect(h.lines).to.have.length(2);
    const cut = h.lines[1]!;
    expect(cut.role).to.equal('persona');
    expect(cut.text).to.match(/…$/);
    const said = cut.text.slice(0, -1);
    // A prefix of a reply, whole words only, far shorter than the line after 200 ms of 50 ms words.
    expect(said.split(' ').length).to.be.within(1, 6);
    await h.clock.advance(10_000);
    expect(
      h.lines.slice(2).every((l) => !l.text.startsWith(said)),
      'the cut line is not added again',
    ).to.equal(true);
    h.sub.unsubscribe();
  });

  it('ends the transcript with what was played when the call ends mid-line', async () => {
    const h = harness();
    await h.clock.advance(200);
    h.frames$.complete();
    expect(h.lines).to.have.length(1);
    expect(h.persona.greeting!.startsWith(h.lines[0]!.text.slice(0, -1))).to.equal(true);
    expect(h.lines[0]!.text.length).to.be.below(h.persona.greeting!.length);
    expect(h.isCompleted()).to.equal(true);
  });

  it('a loud caller (audio) also interrupts; quiet audio does not', async () => {
    const h = harness();
    await h.clock.advance(60);
    const quiet = new Uint8Array(160).fill(0xff); // mu-law silence
    for (let i = 0; i < 5; i++) h.frames$.next({ kind: 'audio', track: 'inbound', data: quiet });
    await h.clock.advance(20);
    expect(h.out.some((f) => f.kind === 'clear')).to.equal(false);
    const loud = new Uint8Array(160).map((_, i) => (i % 2 ? 0x10 : 0x90)); // ±~8000
    for (let i = 0; i < 4; i++) h.frames$.next({ kind: 'audio', track: 'inbound', data: loud });
    await h.clock.advance(20);
    expect(h.out.some((f) => f.kind === 'clear')).to.equal(true);
    h.sub.unsubscribe();
  });

  it('prompts after 8 s of silence, three times, then says goodbye and hangs up', async () => {
    const h = harness();
    await h.clock.advance(1000); // greeting played (~0.45 s)
    expect(h.lines).to.have.length(1);
    await h.clock.advance(7000);
    expect(h.lines).to.have.length(1);
    await h.clock.advance(1000);
    expect(h.lines).to.have.length(2);
    expect(h.lines[1]!.text).to.match(/hello|there|hear/i);
    await h.clock.advance(30_000);
    expect(h.lines).to.have.length(5); // greeting, 3 prompts, goodbye
    expect(h.lines[4]!.text).to.match(/bye/i);
    expect(h.out.at(-1)).to.deep.equal({ kind: 'hangup' });
    expect(h.out.at(-2)).to.deep.include({ kind: 'mark' }); // the goodbye was heard in full first
    expect(h.ends).to.deep.equal(['hangup']);
    h.sub.unsubscribe();
  });

  it('a caller who answers a prompt resets the count', async () => {
    const h = harness({ tts: null });
    await h.clock.advance(16_010);
    expect(h.lines).to.have.length(3);
    h.callerSays('Yes I am here, sorry.');
    await h.clock.advance(20);
    expect(h.lines).to.have.length(4); // persona lines only: greeting, 2 prompts, the answer
    await h.clock.advance(3 * 8000 + 10);
    expect(h.ends).to.deep.equal([]);
    await h.clock.advance(8000);
    expect(h.ends).to.deep.equal(['hangup']);
    h.sub.unsubscribe();
  });

  it('a greeting that cannot be spoken reports session.error and ends the session', async () => {
    const h = harness({ tts: toneVoice((t) => t.startsWith('Hello? This is Margaret')) });
    await h.clock.advance(100);
    expect(h.errors).to.deep.equal([
      { error: 'voice refused', text: "speech synthesis failed for the persona's greeting" },
    ]);
    expect(h.ends).to.deep.equal(['error']);
    expect(h.lines).to.have.length(0);
    h.sub.unsubscribe();
  });

  it('any later refusal (voice or model) is reported and the call goes on', async () => {
    let n = 0;
    const flaky: DialogueEngine = {
      id: 'generative:test',
      reply: async () => {
        if (n++ === 0) throw new ProviderError('test-model', 'model refused');
        return 'Who did you say you were?';
      },
    };
    let refusals = 0;
    const h = harness({ engine: flaky, tts: toneVoice((t) => t === 'Who did you say you were?' && refusals++ === 0) });
    await h.clock.advance(1000);
    h.callerSays('This is the bank fraud department.');
    await h.clock.advance(2000);
    expect(h.errors[0]).to.deep.equal({
      error: 'model refused',
      text: 'the persona reply failed; a scripted line was used instead',
    });
    expect(h.lines).to.have.length(2); // the scripted fallback was spoken
    h.callerSays('Your account is compromised.');
    await h.clock.advance(2000);
    expect(h.errors[1]).to.deep.equal({
      error: 'voice refused',
      text: "speech synthesis failed for the persona's reply",
    });
    expect(h.ends).to.deep.equal([]);
    h.callerSays('Hello?');
    await h.clock.advance(2000);
    expect(h.lines).to.have.length(3);
    h.sub.unsubscribe();
  });

  it('completes when the caller stops', async () => {
    const h = harness();
    await h.clock.advance(100);
    h.frames$.complete();
    expect(h.isCompleted()).to.equal(true);
  });
});
