import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  alawToLinear,
  disallowedReason,
  loadSession,
  mulawToLinear,
  replay,
  withStartParams,
  type FixtureName,
  type Product,
  type Vendor,
} from '../fixtures/vendor/replay.js';
import { detectSphinx } from '../../src/providers/stt/sphinx.js';
import { startHttpsReceiver, type HttpsReceiver, type ReceivedPost } from './helpers/https-receiver.js';
import { startLiveApp, type LiveApp } from './helpers/live-node.js';

interface Received {
  data: string | Buffer;
  binary: boolean;
}

/** A vendor's side of one media socket: what the server wrote to it, and how it ended. */
interface VendorSocket {
  ws: WebSocket;
  received: Received[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Connects the way a vendor does: no key header, optionally the vendor's own upgrade headers. */
async function connectVendor(url: string, headers: Record<string, string> = {}): Promise<VendorSocket> {
  const ws = new WebSocket(url, { headers });
  const received: Received[] = [];
  ws.on('message', (data: Buffer, binary) => received.push({ data: binary ? data : data.toString('utf8'), binary }));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
  return { ws, received, closed };
}

async function closedWithin(s: VendorSocket, ms = 30_000): Promise<{ code: number; reason: string }> {
  return Promise.race([
    s.closed,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('server did not close the socket')), ms)),
  ]);
}

/** Plays a whole recorded session and waits for the server to close the socket. */
async function playVendor(url: string, lines: readonly string[], headers: Record<string, string> = {}, gapMs = 0) {
  const s = await connectVendor(url, headers);
  await replay(s.ws, lines, { gapMs });
  return { received: s.received, close: await closedWithin(s) };
}

async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function expectOnlyAllowed(vendor: Vendor, product: Product, received: Received[], streamId?: string): void {
  for (const m of received) {
    const data = m.binary ? new Uint8Array(m.data as Buffer) : (m.data as string);
    expect(disallowedReason(vendor, product, data, m.binary, streamId)).to.equal(null);
  }
}

const VENDOR_A_TOKEN = 'vendor-a-auth-token-0123456789';

function signatureOf(post: ReceivedPost, key: string): string {
  return `sha256=${createHmac('sha256', key).update(post.raw).digest('hex')}`;
}

describe('vendor media streams over a real socket', function () {
  this.timeout(60_000);
  let srv: TestServer;
  let hooks: HttpsReceiver;
  let live: LiveApp;
  let runNo = 0;

  before(async () => {
    srv = await startTestServer({ VOICE_WEBHOOK_ALLOW_PRIVATE: 'true', VOICE_VENDOR_A_AUTH_TOKENS: VENDOR_A_TOKEN });
    hooks = await startHttpsReceiver();
    // The node's own socket entry points, trusting the receiver's self-signed certificate.
    live = await startLiveApp(srv.services, { webhookTls: { ca: hooks.cert } });
  });
  after(async () => {
    await live?.close();
    await hooks?.close();
    await srv?.close();
  });

  /** A webhook URL unique to one run, and the posts that reached it. */
  function hookFor(name: string) {
    const path = `/hook/${name}/${++runNo}`;
    const posts = () => hooks.posts.filter((p) => p.path === path);
    const waitFor = async (type: string, ms = 20_000): Promise<ReceivedPost> => {
      await until(() => posts().some((p) => p.body.type === type), ms, `${type} webhook on ${path}`);
      return posts().find((p) => p.body.type === type)!;
    };
    return { url: `${hooks.url}${path}`, posts, waitFor };
  }

  async function storedSession(id: string): Promise<Record<string, unknown>> {
    const res = await fetch(`${srv.url}/voice/sessions/${id}`, { headers: { 'X-Auth': srv.key } });
    expect(res.status).to.equal(200);
    return ((await res.json()) as { session: Record<string, unknown> }).session;
  }

  const filterCases: Array<{
    name: FixtureName;
    vendor: Vendor;
    callId: string;
    from: string;
    to: string;
    dtmf: string;
  }> = [
    {
      name: 'vendor-a-filter',
      vendor: 'vendor_a',
      callId: 'CA6b1e3d5f7a9c2e4b6d8f0a1c3e5b7d9f',
      from: '+15551234567',
      to: '+15557654321',
      dtmf: '',
    },
    {
      name: 'vendor-b-filter',
      vendor: 'vendor_b',
      callId: 'v2:T02llQxIyaRkhfRKxgAP8nY511EhFLizdvdUKJiSw8d6A9BborherQ',
      from: '+13122010094',
      to: '+13122123456',
      dtmf: '1',
    },
  ];

  for (const c of filterCases) {
    it(`${c.vendor} filter: events reach the webhook, the session is stored as ${c.vendor}, nothing is written back`, async () => {
      const hook = hookFor(c.name);
      const lines = withStartParams(loadSession(c.name), { webhook: hook.url });
      const run = await playVendor(`${live.wsUrl}/voice/filter/stream?key=${srv.key}`, lines);

      expect(run.close.code).to.equal(1000);
      expect(run.received, 'messages written to the vendor socket').to.deep.equal([]);

      const started = await hook.waitFor('session.started');
      const endedPost = await hook.waitFor('session.ended');
      const ended = endedPost.body;
      const id = started.body.session_id as string;
      expect(started.body).to.include({ kind: 'filter', call_id: c.callId, from: c.from, to: c.to });
      expect(ended).to.include({ session_id: id, kind: 'filter', call_id: c.callId, from: c.from });
      expect((ended.intel as { dtmf?: string }).dtmf ?? '').to.equal(c.dtmf);
      expect(endedPost.headers['x-voice-signature']).to.equal(signatureOf(endedPost, srv.key));
      expect(endedPost.headers['x-voice-event']).to.equal('session.ended');
      expect(hook.posts().map((p) => p.body.type)).to.not.include('transcript.line');
      // The media reached the graph: transcribed when speech-to-text is on, else reported once as text-only.
      if (srv.services.stt) expect(String(ended.transcript)).to.match(/\w/);
      else expect(hook.posts().filter((p) => p.body.type === 'session.error')).to.have.length(1);

      const rec = await storedSession(id);
      expect(rec).to.include({ protocol: c.vendor, kind: 'filter', call_id: c.callId, from: c.from, to: c.to });
    });
  }

  const honeypotCases: Array<{
    name: FixtureName;
    vendor: Vendor;
    toLinear: (b: number) => number;
    from: string;
    dtmf: string;
  }> = [
    { name: 'vendor-a-honeypot', vendor: 'vendor_a', toLinear: mulawToLinear, from: '+15551234567', dtmf: '5#' },
    // Vendor B's fixture streams PCMA: the persona must answer in A-law.
    { name: 'vendor-b-honeypot', vendor: 'vendor_b', toLinear: alawToLinear, from: '+13122010094', dtmf: '9' },
  ];

  for (const c of honeypotCases) {
    it(`${c.vendor} honeypot: the persona speaks back in the stream's codec using only media/mark/clear`, async () => {
      const hook = hookFor(c.name);
      const lines = withStartParams(loadSession(c.name), { webhook: hook.url });
      const start = JSON.parse(lines[1]!) as { streamSid?: string };
      const s = await connectVendor(`${live.wsUrl}/voice/honeypot/stream?key=${srv.key}`);
      await replay(s.ws, lines, { stopAt: 'stop' });

      // The greeting arrives as media messages; then the call ends as the vendor would end it.
      const media = () => s.received.filter((m) => !m.binary && (m.data as string).includes('"event":"media"'));
      await until(() => media().length >= 25, 20_000, 'half a second of persona audio');
      s.ws.send(lines.at(-1)!);
      const close = await closedWithin(s);
      expect(close.code).to.equal(1000);

      expect(s.received.length).to.be.greaterThan(0);
      expectOnlyAllowed(c.vendor, 'honeypot', s.received, start.streamSid);
      const audio = Buffer.concat(
        media().map((m) =>
          Buffer.from((JSON.parse(m.data as string) as { media: { payload: string } }).media.payload, 'base64'),
        ),
      );
      let loud = 0;
      for (let i = 0; i + 160 <= audio.length; i += 160) {
        let sum = 0;
        for (const b of audio.subarray(i, i + 160)) sum += c.toLinear(b) ** 2;
        if (Math.sqrt(sum / 160) > 500) loud++;
      }
      expect(loud, 'loud 20 ms frames of persona speech').to.be.greaterThan(5);

      const started = await hook.waitFor('session.started');
      const ended = await hook.waitFor('session.ended');
      expect(started.body).to.include({ kind: 'honeypot', from: c.from });
      expect(started.body.persona).to.be.an('object');
      expect((ended.body.intel as { dtmf?: string }).dtmf ?? '').to.equal(c.dtmf);
      const rec = await storedSession(started.body.session_id as string);
      expect(rec).to.include({ protocol: c.vendor, kind: 'honeypot', from: c.from });
      expect(rec.persona_id).to.be.a('string');
    });
  }

  it('a vendor start whose codec cannot be transcribed closes the socket with no events', async () => {
    const hook = hookFor('g722');
    const lines = loadSession('vendor-b-filter').map((l) => l.replace('"encoding":"PCMU"', '"encoding":"G722"'));
    const run = await playVendor(
      `${live.wsUrl}/voice/filter/stream?key=${srv.key}`,
      withStartParams(lines, { webhook: hook.url }).slice(0, 3),
    );
    expect(run.close.code).to.equal(1008);
    expect(run.received).to.deep.equal([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(hook.posts()).to.deep.equal([]);
  });

  describe('keyless upgrades (vendor A drops the query string from stream URLs)', () => {
    // What vendor A's upgrade carries instead of a key: its request signature, the base64 HMAC-SHA1 of
    // the wss:// stream URL with the account's auth token (the node is reached through a TLS proxy).
    let VENDOR_HEADERS: Record<string, string>;
    before(() => {
      const url = `${live.wsUrl.replace(/^ws:/, 'wss:')}/voice/filter/stream`;
      VENDOR_HEADERS = { 'X-Twilio-Signature': createHmac('sha1', VENDOR_A_TOKEN).update(url).digest('base64') };
    });

    it('starts the session when a vendor upgrade has no key and the start event carries a valid key parameter', async () => {
      const hook = hookFor('keyless');
      const lines = withStartParams(loadSession('vendor-a-filter'), { key: srv.key, webhook: hook.url });
      const run = await playVendor(`${live.wsUrl}/voice/filter/stream`, lines, VENDOR_HEADERS);
      expect(run.close.code).to.equal(1000);
      expect(run.received).to.deep.equal([]);
      const ended = await hook.waitFor('session.ended');
      expect(ended.body).to.include({ call_id: 'CA6b1e3d5f7a9c2e4b6d8f0a1c3e5b7d9f', from: '+15551234567' });
      // Signed with the key that came in the start event.
      expect(ended.headers['x-voice-signature']).to.equal(signatureOf(ended, srv.key));
    });

    it('closes a keyless vendor socket with no events when the key parameter is wrong or missing', async () => {
      for (const params of [{ key: 'wrong-key-123456' }, {}] as Array<Record<string, string>>) {
        const hook = hookFor('keyless-bad');
        const lines = withStartParams(loadSession('vendor-b-filter'), { ...params, webhook: hook.url });
        const run = await playVendor(`${live.wsUrl}/voice/filter/stream`, lines.slice(0, 5), VENDOR_HEADERS).catch(
          (e: Error) => e,
        );
        if (run instanceof Error) {
          // Refusing the upgrade outright is also "no events".
          expect(run.message).to.match(/401/);
        } else {
          expect(run.close.code).to.not.equal(1000);
          expect(run.received).to.deep.equal([]);
        }
        await new Promise((r) => setTimeout(r, 200));
        expect(hook.posts()).to.deep.equal([]);
      }
    });

    it('still refuses a keyless upgrade that is not a vendor with 401, whatever its start carries', async () => {
      const lines = withStartParams(loadSession('vendor-a-filter'), { key: srv.key });
      const err = await playVendor(`${live.wsUrl}/voice/filter/stream`, lines.slice(0, 3)).then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message).to.match(/401/);
    });
  });
});

describe('vendor media streams: speech through the real recogniser', function () {
  this.timeout(120_000);
  let srv: TestServer;

  before(async function () {
    if (!detectSphinx()) this.skip(); // PocketSphinx (Debian pocketsphinx, pocketsphinx-en-us) not installed
    srv = await startTestServer({ VOICE_STT: 'sphinx' });
  });
  after(async () => {
    await srv?.close();
  });

  it('vendor A with both tracks: G.711 from the vendor is transcribed, its outbound track as the callee', async () => {
    const lines = loadSession('vendor-a-filter');
    // In real time, as the vendor streams (two tracks interleaved: 10 ms per message). The
    // recogniser may run slower than real time on a busy machine and only gets 5 s after the stop,
    // so the test asks for the callee's opening words (recognised while the call still runs).
    const run = await playVendor(`${srv.wsUrl}/voice/filter/stream?key=${srv.key}`, lines, {}, 10);
    expect(run.close.code).to.equal(1000);
    expect(run.received).to.deep.equal([]);
    const list = (await (
      await fetch(`${srv.url}/voice/sessions?limit=1`, { headers: { 'X-Auth': srv.key } })
    ).json()) as {
      sessions: Array<{ id: string }>;
    };
    const res = await fetch(`${srv.url}/voice/sessions/${list.sessions[0]!.id}`, { headers: { 'X-Auth': srv.key } });
    const rec = ((await res.json()) as { session: { transcript: string; protocol: string } }).session;
    expect(rec.protocol).to.equal('vendor_a');
    const said = rec.transcript.split('\n').filter((l) => l !== '');
    // The callee answers first ("Hello, who is calling?") on the outbound track.
    const callee = said.filter((l) => l.startsWith('callee: '));
    expect(callee, rec.transcript).to.have.length.of.at.least(1);
    expect(callee[0]!.slice('callee: '.length)).to.match(/\w{2,}/);
    for (const l of said) expect(l).to.match(/^(caller|callee): \S/);
  });
});
