import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { LIVE_PROFILES } from '../../pipelines/live/profile.js';
import { Observable } from 'rxjs';
import type { SpeechToText, SttResult } from '../../src/providers/stt/types.js';
import type { ModelProvider } from '../../src/providers/llm/types.js';
import type { Services } from '../../src/services.js';
import { hashKey } from '../../src/server/auth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ESCALATING_SCAM_CALL, openLive, send, transcript, waitFor } from './helpers/live-client.js';
import { startLiveApp, type LiveApp } from './helpers/live-node.js';
import { VirtualClock, settle } from './helpers/virtual-clock.js';

async function keyWith(server: TestServer, credits: number): Promise<{ key: string; id: string }> {
  const key = `lim_${randomBytes(10).toString('hex')}`;
  const id = randomUUID();
  await server.services.store.keys.create({
    id,
    hash: hashKey(key),
    label: 'limits',
    credits,
    created_at: new Date().toISOString(),
  });
  return { key, id };
}

describe('live filter limits in virtual time (start timeout, credits, time limit)', function () {
  let server: TestServer;
  let clock: VirtualClock;
  /**
   * The node's services with another model. Without its analysis workers too: they hold the node's own
   * embedded model (a node with a remote model has none), and would answer in the slow model's place.
   */
  const withModel = (llm: ModelProvider): Services => {
    const { analysis: _workers, ...rest } = server.services;
    return { ...rest, llm };
  };
  let live: LiveApp;
  beforeEach(async () => {
    server ??= await startTestServer();
    clock = new VirtualClock();
    live = await startLiveApp(server.services, { scheduler: clock.scheduler });
  });
  afterEach(async () => {
    await live.close();
  });
  after(async () => {
    await server.close();
  });

  it('closes a socket with no events and charges nothing when no start arrives within 15 s', async () => {
    const { key, id } = await keyWith(server, 100);
    const run = await openLive(`${live.wsUrl}/voice/filter/stream?key=${key}`);
    send(run, { type: 'hello' }); // unknown frames before the start are ignored
    await clock.advanceTo(14_999);
    expect(run.ws.readyState).to.equal(run.ws.OPEN);
    await clock.advanceTo(15_000);
    const closed = await run.closed;
    expect(closed).to.deep.equal({ code: 1008, reason: 'start timeout' });
    expect(run.events).to.deep.equal([]);
    expect(await server.services.store.keys.balance(id)).to.equal(100);
  });

  it('charges the first minute at start and each started minute, and ends with session.ended when credits run out', async () => {
    const { key, id } = await keyWith(server, 6); // two filter minutes at 3 credits
    const run = await openLive(`${live.wsUrl}/voice/filter/stream?key=${key}`);
    send(run, { type: 'start', from: '+12025550111' });
    await waitFor(run, 'session.started');
    expect(await server.services.store.keys.balance(id)).to.equal(3);
    transcript(run, ESCALATING_SCAM_CALL[0]!);
    await waitFor(run, 'transcript.line');

    await clock.advanceTo(60_000);
    expect(await server.services.store.keys.balance(id)).to.equal(0);
    expect(run.events.map((e) => e.type)).to.not.include('session.ended');

    await clock.advanceTo(120_000);
    const ended = await waitFor(run, 'session.ended');
    expect(ended.duration_seconds).to.equal(120);
    expect(ended.transcript).to.equal(`caller: ${ESCALATING_SCAM_CALL[0]!}`);
    expect((await run.closed).code).to.equal(1000);
    const rec = await server.services.store.sessions.get(ended.session_id as string);
    expect(rec).to.include({ state: 'ended', duration_seconds: 120, turns: 1 });
  });

  it('doubles the minute price with tracks=both', async () => {
    const { key, id } = await keyWith(server, 100);
    const run = await openLive(`${live.wsUrl}/voice/filter/stream?key=${key}&tracks=both`);
    send(run, { type: 'start' });
    await waitFor(run, 'session.started');
    expect(await server.services.store.keys.balance(id)).to.equal(94);
    await clock.advanceTo(60_000);
    expect(await server.services.store.keys.balance(id)).to.equal(88);
    send(run, { type: 'stop' });
    await run.closed;
  });

  it('ends a filter session at 60 minutes with session.ended', async () => {
    const { key, id } = await keyWith(server, 1000);
    const run = await openLive(`${live.wsUrl}/voice/filter/stream?key=${key}`);
    send(run, { type: 'start' });
    await waitFor(run, 'session.started');
    await clock.advanceTo(3_599_999);
    expect(run.events.map((e) => e.type)).to.not.include('session.ended');
    await clock.advanceTo(3_600_000);
    const ended = await waitFor(run, 'session.ended');
    expect(ended.duration_seconds).to.equal(3600);
    await run.closed;
    // 60 started minutes: the first at start, then one at each of 1:00 … 59:00 (the tick at 60:00 races the limit).
    expect(1000 - (await server.services.store.keys.balance(id))).to.equal(180);
  });

  it('bounds the final analysis at 20 s after the stop', async () => {
    const slow = {
      id: 'slow:model',
      scoreLive: () => new Promise<never>(() => undefined),
      analyze: () => new Promise<never>(() => undefined),
    };
    const services = withModel(slow);
    const own = await startLiveApp(services, { scheduler: clock.scheduler });
    try {
      const run = await openLive(`${own.wsUrl}/voice/filter/stream?key=${server.key}`);
      send(run, { type: 'start' });
      for (const line of ESCALATING_SCAM_CALL) transcript(run, line);
      send(run, { type: 'stop' });
      await settle(200);
      expect(run.events.map((e) => e.type)).to.not.include('session.ended');
      await clock.advanceTo(20_000);
      const ended = await waitFor(run, 'session.ended');
      // The rules verdict stands; the client hears why the model did not answer.
      expect((ended.verdict as Record<string, unknown>).source).to.equal('heuristic');
      const error = run.events.find((e) => e.type === 'session.error')!;
      expect(error.error).to.match(/longer than 20 s/);
    } finally {
      await own.close();
    }
  });

  it('cuts the final analysis to what the drain leaves when the node shuts down, even one already running', async () => {
    const slow = {
      id: 'slow:model',
      scoreLive: () => new Promise<never>(() => undefined),
      analyze: () => new Promise<never>(() => undefined),
    };
    const own = await startLiveApp(withModel(slow), { scheduler: clock.scheduler });
    try {
      const ending = await openLive(`${own.wsUrl}/voice/filter/stream?key=${server.key}`);
      const running = await openLive(`${own.wsUrl}/voice/filter/stream?key=${server.key}`);
      for (const run of [ending, running]) {
        send(run, { type: 'start' });
        for (const line of ESCALATING_SCAM_CALL) transcript(run, line);
      }
      send(ending, { type: 'stop' }); // its 20 s analysis is already under way when the drain starts
      await settle(200);
      // A 12 s drain: the analyses must give way by 12 s less the 7 s kept for the record and posts.
      const drained = own.sockets.supervisor.drain(12_000);
      await settle(200);
      await clock.advanceTo(4_999);
      for (const run of [ending, running]) expect(run.events.map((e) => e.type)).to.not.include('session.ended');
      await clock.advanceTo(5_000);
      for (const run of [ending, running]) {
        const ended = await waitFor(run, 'session.ended');
        expect((ended.verdict as Record<string, unknown>).source).to.equal('heuristic');
        expect(run.events.find((e) => e.type === 'session.error')!.error).to.match(/node is shutting down/);
      }
      await drained;
    } finally {
      await own.close();
    }
  });

  it('gives speech-to-text a bounded time after the stop to flush, then ends without it', async () => {
    // A recogniser that takes audio and never answers nor completes (a stuck provider).
    const stuck: SpeechToText = {
      id: 'stuck:test',
      sampleRate: 16000,
      wantsSegments: false,
      transcribe: (audio) => new Observable<SttResult>(() => audio.subscribe()),
    };
    const own = await startLiveApp({ ...server.services, stt: stuck }, { scheduler: clock.scheduler });
    try {
      const run = await openLive(`${own.wsUrl}/voice/filter/stream?key=${server.key}`);
      send(run, { type: 'start' });
      await waitFor(run, 'session.started');
      run.ws.send(Buffer.alloc(320));
      transcript(run, 'Hello?');
      send(run, { type: 'stop' });
      await settle(200);
      expect(run.events.map((e) => e.type)).to.not.include('session.ended');
      await clock.advanceTo(LIVE_PROFILES.filter.flushMs - 1);
      expect(run.events.map((e) => e.type)).to.not.include('session.ended');
      await clock.advanceTo(LIVE_PROFILES.filter.flushMs);
      const ended = await waitFor(run, 'session.ended');
      expect(ended.transcript).to.equal('caller: Hello?');
    } finally {
      await own.close();
    }
  });
});
