import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import WebSocket from 'ws';
import { hashKey } from '../../src/server/auth.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openLive, send, waitFor, type LiveRun } from './helpers/live-client.js';

async function refused(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const err = (await openLive(url, headers).then(
    (run) => {
      run.ws.close();
      expect.fail('upgrade accepted');
    },
    (e: unknown) => e,
  )) as { status: number; body: string };
  return { status: err.status, body: JSON.parse(err.body) as Record<string, unknown> };
}

async function closedWithoutEvents(run: LiveRun): Promise<string> {
  const { code, reason } = await run.closed;
  expect(code).to.equal(1008);
  expect(run.events).to.deep.equal([]);
  return reason;
}

describe('live filter refusals', function () {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });
  const url = () => `${server.wsUrl}/voice/filter/stream?key=${server.key}`;

  describe('bad starts close the socket with no events and charge nothing', () => {
    const cases: Array<[string, (run: LiveRun) => void, RegExp]> = [
      ['a binary frame before the start', (r) => r.ws.send(Buffer.from([1, 2, 3, 4])), /binary frame before start/],
      ['an unsupported encoding', (r) => send(r, { type: 'start', encoding: 'opus' }), /encoding/],
      ['a sample rate below 8000', (r) => send(r, { type: 'start', sample_rate: 7999 }), /sample_rate/],
      ['a sample rate above 48000', (r) => send(r, { type: 'start', sample_rate: 48001 }), /sample_rate/],
      ['a fractional sample rate', (r) => send(r, { type: 'start', sample_rate: 16000.5 }), /sample_rate/],
      ['a sample rate as a string', (r) => send(r, { type: 'start', sample_rate: '8000' }), /sample_rate/],
      ['a call_id that is not a string', (r) => send(r, { type: 'start', call_id: 42 }), /call_id/],
      ['params with a non-string value', (r) => send(r, { type: 'start', params: { report: true } }), /params/],
    ];
    for (const [name, act, reason] of cases) {
      it(name, async () => {
        const before = await server.services.store.keys.balance(
          (await server.services.store.keys.findByHash(hashKey(server.key)))!.id,
        );
        const run = await openLive(url());
        act(run);
        expect(await closedWithoutEvents(run)).to.match(reason);
        const afterBalance = await server.services.store.keys.balance(
          (await server.services.store.keys.findByHash(hashKey(server.key)))!.id,
        );
        expect(afterBalance).to.equal(before);
      });
    }

    it('ignores unknown text frames before the start, then starts normally', async () => {
      const run = await openLive(url());
      run.ws.send('not json at all');
      send(run, { type: 'hello' });
      send(run, { type: 'start', sample_rate: 16000, encoding: 'mulaw' });
      await waitFor(run, 'session.started');
      send(run, { type: 'something-new' });
      run.ws.send(Buffer.alloc(0)); // empty audio is ignored
      send(run, { type: 'stop' });
      await run.closed;
      expect(run.events.map((e) => e.type)).to.deep.equal(['session.started', 'session.ended']);
    });
  });

  it('sends one session.error when audio arrives on a text-only deployment, and goes on', async () => {
    const run = await openLive(url());
    send(run, { type: 'start' });
    await waitFor(run, 'session.started');
    for (let i = 0; i < 5; i++) run.ws.send(Buffer.alloc(320));
    send(run, { type: 'transcript', text: 'Hello there.' });
    send(run, { type: 'stop' });
    await run.closed;
    const errors = run.events.filter((e) => e.type === 'session.error');
    expect(errors).to.have.length(1);
    expect(errors[0]!.error).to.match(/cannot be transcribed/);
    expect(run.events.map((e) => e.type)).to.include('transcript.line');
    expect(run.events.at(-1)!.type).to.equal('session.ended');
  });

  it('refuses the upgrade with 402 when the balance is below the first minute', async () => {
    const key = `poor_${randomBytes(8).toString('hex')}`;
    await server.services.store.keys.create({
      id: randomUUID(),
      hash: hashKey(key),
      label: 'poor',
      credits: 2,
      created_at: new Date().toISOString(),
    });
    const r = await refused(`${server.wsUrl}/voice/filter/stream?key=${key}`);
    expect(r.status).to.equal(402);
    expect(r.body.status).to.equal('error');
  });
});

describe('live filter capacity', function () {
  it('answers 503 above VOICE_MAX_SESSIONS and frees the slot when a socket closes', async () => {
    const server = await startTestServer({ VOICE_MAX_SESSIONS: '2' });
    try {
      const u = `${server.wsUrl}/voice/filter/stream?key=${server.key}`;
      const a = await openLive(u);
      const b = await openLive(u);
      const r = await refused(u);
      expect(r.status).to.equal(503);
      expect(r.body.message).to.match(/limit/);
      a.ws.close();
      await a.closed;
      await new Promise((res) => setTimeout(res, 50));
      const c = await openLive(u);
      for (const run of [b, c]) run.ws.close();
    } finally {
      await server.close();
    }
  });

  it('holds 200 live sessions on a node and refuses the 201st with 503', async function () {
    this.timeout(60_000);
    const server = await startTestServer();
    const runs: LiveRun[] = [];
    try {
      const u = `${server.wsUrl}/voice/filter/stream?key=${server.key}`;
      for (let i = 0; i < 200; i += 20) {
        runs.push(...(await Promise.all(Array.from({ length: 20 }, () => openLive(u)))));
      }
      for (const run of runs) send(run, { type: 'start' });
      await Promise.all(runs.map((run) => waitFor(run, 'session.started')));
      const r = await refused(u);
      expect(r.status).to.equal(503);
      for (const run of runs) send(run, { type: 'stop' });
      await Promise.all(runs.map((run) => run.closed));
      expect(runs.every((run) => run.events.at(-1)!.type === 'session.ended')).to.equal(true);
    } finally {
      for (const run of runs) if (run.ws.readyState === WebSocket.OPEN) run.ws.close();
      await server.close();
    }
  });

  it('answers 503 when the live filter is off on the deployment', async () => {
    const server = await startTestServer({ VOICE_FEATURES: 'scan' });
    try {
      const r = await refused(`${server.wsUrl}/voice/filter/stream?key=${server.key}`);
      expect(r.status).to.equal(503);
      expect(r.body.message).to.match(/live_filter/);
    } finally {
      await server.close();
    }
  });
});
