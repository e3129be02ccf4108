import { expect } from 'chai';
import type WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { PERSONAS } from '../../src/honeypot/personas.js';
import { SCAM_CALL, openLive, send, transcript, waitFor, type LiveRun } from './helpers/live-client.js';

/** mu-law byte → 16-bit PCM (ITU-T G.711), written out here so the test does not trust the server's codec. */
function mulawToPcm(b: number): number {
  const u = ~b & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  return u & 0x80 ? 0x84 - t : t - 0x84;
}

function rms(samples: number[]): number {
  return Math.sqrt(samples.reduce((s, x) => s + x * x, 0) / Math.max(1, samples.length));
}

interface HoneypotRun extends LiveRun {
  audio: Buffer[];
  /** Order of everything received: 'audio' for binary frames, else the message type. */
  order: string[];
}

async function openHoneypot(server: TestServer, q = ''): Promise<HoneypotRun> {
  const run = (await openLive(`${server.wsUrl}/voice/honeypot/stream?key=${server.key}${q}`)) as HoneypotRun;
  run.audio = [];
  run.order = [];
  run.ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => {
    if (isBinary) {
      run.audio.push(Buffer.from(data as Buffer));
      run.order.push('audio');
    } else run.order.push((JSON.parse(data.toString()) as { type: string }).type);
  });
  return run;
}

async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const personaLines = (run: LiveRun, name: string) =>
  run.events.filter((e) => e.type === 'transcript.line' && e.speaker === name).map((e) => e.text as string);

describe('honeypot socket', function () {
  this.timeout(60_000);
  let server: TestServer;
  const saved = process.env.VOICE_HONEYPOT_SILENCE_MS;
  before(async () => {
    // The silence clock is shortened for this node so a hang-up can be watched in real time.
    process.env.VOICE_HONEYPOT_SILENCE_MS = '1000';
    server = await startTestServer();
  });
  after(async () => {
    if (saved === undefined) delete process.env.VOICE_HONEYPOT_SILENCE_MS;
    else process.env.VOICE_HONEYPOT_SILENCE_MS = saved;
    await server.close();
  });

  it('greets in the client encoding: session.started with the persona, audible mu-law, a mark after it', async () => {
    const run = await openHoneypot(server, '&persona=walter');
    send(run, { type: 'start', call_id: 'hp-1', from: '+12025550123', encoding: 'mulaw', sample_rate: 8000 });
    const started = await waitFor(run, 'session.started');
    const walter = PERSONAS.find((p) => p.id === 'walter')!;
    expect(started.kind).to.equal('honeypot');
    expect(started.persona).to.deep.equal({
      id: 'walter',
      name: 'Walter',
      voice: walter.voice,
      language: walter.language,
      description: walter.description,
    });
    await waitFor(run, 'mark', 20_000);
    expect(personaLines(run, 'Walter')).to.deep.equal([walter.greeting]);
    // 20 ms frames of mu-law at 8 kHz, paced: about a second and a half of speech or more.
    expect(run.audio.length).to.be.greaterThan(50);
    expect(run.audio.every((f) => f.length === 160 || f === run.audio.at(-1))).to.equal(true);
    const pcm = Buffer.concat(run.audio).reduce<number[]>((acc, b) => (acc.push(mulawToPcm(b)), acc), []);
    expect(rms(pcm)).to.be.greaterThan(300);
    expect(run.order.indexOf('mark')).to.be.greaterThan(run.order.indexOf('audio'));
    send(run, { type: 'stop' });
    await run.closed;
  });

  it('speaks pcm16 at the client rate (16 kHz: 640-byte frames)', async () => {
    const run = await openHoneypot(server);
    send(run, { type: 'start', encoding: 'pcm16', sample_rate: 16000 });
    await until(() => run.audio.length >= 40, 20_000, 'most of a second of greeting');
    expect(run.audio[0]!.length).to.equal(640);
    const all = Buffer.concat(run.audio);
    const samples: number[] = [];
    for (let i = 0; i + 1 < all.length; i += 2) samples.push(all.readInt16LE(i));
    expect(rms(samples)).to.be.greaterThan(300);
    send(run, { type: 'stop' });
    await run.closed;
  });

  it('answers every caller turn, and clears its speech when the caller talks over it', async function () {
    this.timeout(150_000);
    const run = await openHoneypot(server, '&persona=margaret');
    send(run, { type: 'start', encoding: 'mulaw', sample_rate: 8000 });
    await until(() => run.audio.length > 5, 20_000, 'greeting audio');
    // Barge-in: the caller talks while the greeting is still playing.
    transcript(run, 'hello', { final: false });
    await waitFor(run, 'clear');
    // The greeting is in the transcript only as far as it was played: a few words, or none at all.
    const greeted = personaLines(run, 'Margaret');
    expect(greeted.length).to.be.at.most(1);
    if (greeted[0]) expect(greeted[0]).to.match(/…$/);
    const base = greeted.length;
    const turns = [
      'Hello, this is John Smith from Microsoft technical support.',
      'Your computer has a virus and we need to fix it right now.',
      'Please go to the website and download AnyDesk.',
    ];
    for (const [i, line] of turns.entries()) {
      transcript(run, line, { end_of_turn: true });
      // A persona line joins the transcript once played whole, in real time: a long reply takes seconds.
      await until(() => personaLines(run, 'Margaret').length >= base + i + 1, 40_000, `reply ${i + 1}`);
    }
    const replies = personaLines(run, 'Margaret').slice(base);
    expect(new Set(replies).size).to.equal(replies.length);
    const callerLines = run.events.filter((e) => e.type === 'transcript.line' && e.speaker === 'caller');
    expect(callerLines.map((e) => e.text)).to.deep.equal(turns);
    send(run, { type: 'stop' });
    await run.closed;
    // The record holds what the caller heard: never the greeting they talked over, whole.
    const greeting = server.services.personas.find((p) => p.id === 'margaret')!.greeting!;
    const ended = run.events.find((e) => e.type === 'session.ended')!;
    expect(ended.transcript as string).to.not.include(greeting);
  });

  it('prompts a silent caller, hangs up after three unanswered prompts, and ends the session', async () => {
    const run = await openHoneypot(server, '&persona=doris');
    send(run, { type: 'start', encoding: 'mulaw', sample_rate: 8000 });
    const ended = await waitFor(run, 'session.ended', 45_000);
    const lines = personaLines(run, 'Doris');
    expect(lines).to.have.length(5); // greeting, three prompts, goodbye
    expect(lines.slice(1, 4).every((l) => /hello|there|hear/i.test(l))).to.equal(true);
    expect(lines[4]).to.match(/bye/i);
    expect(ended.transcript).to.equal(lines.map((l) => `Doris: ${l}`).join('\n'));
    const { code } = await run.closed;
    expect(code).to.equal(1000);
  });

  it('files the caller and the callback number at the end and stores the session with its persona', async function () {
    this.timeout(90_000);
    const run = await openHoneypot(server, '&persona=harold');
    send(run, { type: 'start', call_id: 'hp-file', from: '+12025550123', encoding: 'mulaw', sample_rate: 8000 });
    await waitFor(run, 'session.started');
    for (const line of SCAM_CALL) transcript(run, line, { end_of_turn: true });
    // The greeting and a reply, each played whole in real time before it joins the transcript.
    await until(() => personaLines(run, 'Harold').length >= 2, 40_000, 'a reply');
    send(run, { type: 'stop' });
    const ended = await waitFor(run, 'session.ended', 30_000);
    expect(ended).to.include({ reported: true, reported_numbers: 2 });
    expect((ended.intel as Record<string, unknown>).callback_numbers).to.deep.equal(['+12025550147']);
    const transcriptLines = (ended.transcript as string).split('\n');
    expect(transcriptLines.filter((l) => l.startsWith('Harold: ')).length).to.be.at.least(2);
    expect(transcriptLines).to.include(`caller: ${SCAM_CALL[0]}`);
    const started = run.events[0]!;
    const res = await fetch(`${server.url}/voice/sessions/${started.session_id as string}`, {
      headers: { 'X-Auth': server.key },
    });
    const body = (await res.json()) as { session: Record<string, unknown> };
    expect(body.session).to.include({ kind: 'honeypot', persona_id: 'harold', reported: true });
  });

  it('an unknown persona id closes the socket with no events, like a bad start', async () => {
    const run = await openHoneypot(server);
    send(run, { type: 'start', params: { persona: 'nobody-here' } });
    const { code } = await run.closed;
    expect(code).to.not.equal(1000);
    expect(run.events).to.deep.equal([]);
  });
});
