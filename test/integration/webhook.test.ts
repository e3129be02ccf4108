import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startHttpsReceiver, type HttpsReceiver } from './helpers/https-receiver.js';
import { ESCALATING_SCAM_CALL, openLive, send, transcript } from './helpers/live-client.js';
import { startLiveApp, type LiveApp } from './helpers/live-node.js';

async function until(check: () => boolean, ms = 8000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('live filter webhooks', function () {
  let server: TestServer;
  let receiver: HttpsReceiver;
  let live: LiveApp;
  before(async () => {
    server = await startTestServer({ VOICE_WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver = await startHttpsReceiver();
    live = await startLiveApp(server.services, { webhookTls: { ca: receiver.cert } });
  });
  after(async () => {
    await live.close();
    await receiver.close();
    await server.close();
  });
  beforeEach(() => {
    receiver.posts.length = 0;
  });

  it('posts every event but transcript.line, signed with HMAC-SHA256 of the raw body under the API key', async () => {
    const hook = encodeURIComponent(`${receiver.url}/hooks/voice?x=1`);
    const run = await openLive(`${live.wsUrl}/voice/filter/stream?key=${server.key}&webhook=${hook}`);
    send(run, { type: 'start', call_id: 'hooked', from: '+12025550123' });
    for (const line of ESCALATING_SCAM_CALL) transcript(run, line);
    send(run, { type: 'stop' });
    await run.closed;
    const socketTypes = run.events.map((e) => e.type).filter((t) => t !== 'transcript.line');
    await until(() => receiver.posts.length >= socketTypes.length);

    const posted = receiver.posts.map((p) => p.body.type as string);
    // Posts may interleave under load; as a set they are exactly the socket's events minus transcript lines.
    expect([...posted].sort()).to.deep.equal([...socketTypes].sort());
    expect(posted).to.not.include('transcript.line');
    expect(posted).to.include.members(['session.started', 'verdict', 'session.ended']);
    for (const p of receiver.posts) {
      expect(p.path).to.equal('/hooks/voice?x=1');
      expect(p.headers['content-type']).to.equal('application/json');
      expect(p.headers['x-voice-event']).to.equal(p.body.type);
      const expected = `sha256=${createHmac('sha256', server.key).update(p.raw).digest('hex')}`;
      expect(p.headers['x-voice-signature']).to.equal(expected);
      expect(p.body.call_id).to.equal('hooked');
    }
    const ended = receiver.posts.find((p) => p.body.type === 'session.ended')!;
    expect(ended.body).to.deep.equal(run.events.at(-1));
  });

  it('takes the webhook from start params over the URL option', async () => {
    const run = await openLive(
      `${live.wsUrl}/voice/filter/stream?key=${server.key}&webhook=${encodeURIComponent(`${receiver.url}/url`)}`,
    );
    send(run, { type: 'start', params: { webhook: `${receiver.url}/params` } });
    send(run, { type: 'stop' });
    await run.closed;
    await until(() => receiver.posts.length >= 2);
    expect(new Set(receiver.posts.map((p) => p.path))).to.deep.equal(new Set(['/params']));
  });

  it('ignores an http:// webhook silently: the session runs and nothing is posted', async () => {
    let hits = 0;
    const plain = http.createServer((_req, res) => {
      hits++;
      res.end();
    });
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    const port = (plain.address() as AddressInfo).port;
    try {
      const run = await openLive(
        `${live.wsUrl}/voice/filter/stream?key=${server.key}&webhook=${encodeURIComponent(`http://127.0.0.1:${port}/hook`)}`,
      );
      send(run, { type: 'start' });
      send(run, { type: 'stop' });
      await run.closed;
      expect(run.events.map((e) => e.type)).to.deep.equal(['session.started', 'session.ended']);
      await new Promise((r) => setTimeout(r, 200));
      expect(hits).to.equal(0);
    } finally {
      plain.close();
    }
  });

  it('a receiver that never answers delays neither the socket nor the session end', async () => {
    receiver.respond = () => undefined; // hold every request open
    try {
      const t0 = Date.now();
      const run = await openLive(
        `${live.wsUrl}/voice/filter/stream?key=${server.key}&webhook=${encodeURIComponent(receiver.url)}`,
      );
      send(run, { type: 'start' });
      for (const line of ESCALATING_SCAM_CALL) transcript(run, line);
      send(run, { type: 'stop' });
      await run.closed;
      expect(Date.now() - t0).to.be.below(3000);
      expect(run.events.at(-1)!.type).to.equal('session.ended');
    } finally {
      receiver.respond = (_p, res) => {
        res.writeHead(200).end('ok');
      };
    }
  });
});
