import { expect } from 'chai';
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import WebSocket from 'ws';
import { KEYLESS_PENDING_MAX } from '../../src/server/socket/conn.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TOKEN = 'vendor-a-auth-token-5f1e2d3c4b5a';
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
/** The public key as vendor B's portal shows it: base64 of the raw 32 bytes (the SPKI DER minus its prefix). */
const PUBLIC_KEY = (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(12).toString('base64');

interface Upgrade {
  status: number;
  body: string;
  ws?: WebSocket;
  closed?: Promise<{ code: number; reason: string }>;
}

/** A real socket client; resolves with the upgrade's status (101 with the open socket). */
function upgrade(url: string, headers: Record<string, string> = {}): Promise<Upgrade> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    const closed = new Promise<{ code: number; reason: string }>((r) =>
      ws.on('close', (code, reason) => r({ code, reason: reason.toString() })),
    );
    ws.on('open', () => resolve({ status: 101, body: '', ws, closed }));
    ws.on('unexpected-response', (_q, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on('error', () => resolve({ status: -1, body: '' }));
  });
}

/** Vendor A's signature over the wss:// URL it requested (the node sits behind a TLS proxy). */
function vendorA(s: TestServer, path = '/voice/filter/stream', token = TOKEN): Record<string, string> {
  const url = `wss://127.0.0.1:${s.port}${path}`;
  return { 'X-Twilio-Signature': createHmac('sha1', token).update(url).digest('base64') };
}

function vendorB(atMs = Date.now()): Record<string, string> {
  const ts = String(Math.floor(atMs / 1000));
  return {
    'telnyx-timestamp': ts,
    'telnyx-signature-ed25519': sign(null, Buffer.from(`${ts}|`), privateKey).toString('base64'),
  };
}

/**
 * Keyless socket upgrades are for telephony vendors that cannot put a key on the stream URL. Only an upgrade
 * whose signature a configured vendor secret verifies may wait for its key, and such upgrades have their own
 * small cap and a short start timeout, so they can never hold the node's session slots.
 */
describe('reliability: keyless socket upgrades', function () {
  this.timeout(60_000);
  let s: TestServer;
  let plain: TestServer;
  const open: WebSocket[] = [];
  before(async () => {
    s = await startTestServer({
      VOICE_VENDOR_A_AUTH_TOKENS: `old-token,${TOKEN}`,
      VOICE_VENDOR_B_PUBLIC_KEYS: PUBLIC_KEY,
    });
    plain = await startTestServer();
  });
  afterEach(() => {
    for (const ws of open.splice(0)) ws.terminate();
  });
  after(async () => {
    await s?.close();
    await plain?.close();
  });
  const filter = (srv: TestServer) => `${srv.wsUrl}/voice/filter/stream`;

  it('refuses 200 upgrades with made-up or unverified signature headers 401, and keyed clients still get in', async () => {
    const made = [
      { 'X-Foo-Signature': 'dGVzdA==' },
      { 'X-Vendora-Signature': 'dGVzdA==' },
      { 'X-Twilio-Signature': 'dGVzdA==' },
      vendorA(s, '/voice/filter/stream', 'another-accounts-token'),
      vendorA(s, '/voice/honeypot/stream'),
      { ...vendorB(), 'telnyx-signature-ed25519': Buffer.alloc(64).toString('base64') },
      vendorB(Date.now() - 10 * 60_000),
    ];
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => upgrade(filter(s), made[i % made.length])));
    for (const r of results) if (r.ws) open.push(r.ws);
    expect(new Set(results.map((r) => r.status))).to.deep.equal(new Set([401]));
    expect(JSON.parse(results[0]!.body)).to.deep.equal({
      status: 'error',
      message: 'key: missing (X-Auth header or key query parameter)',
    });
    const keyed = await upgrade(`${filter(s)}?key=${s.key}`);
    if (keyed.ws) open.push(keyed.ws);
    expect(keyed.status).to.equal(101);
  });

  it('accepts a keyless upgrade signed by vendor A or vendor B with a configured secret', async () => {
    for (const headers of [vendorA(s), vendorB()]) {
      const r = await upgrade(filter(s), headers);
      if (r.ws) open.push(r.ws);
      expect(r.status, JSON.stringify(headers)).to.equal(101);
    }
    const honeypot = await upgrade(`${s.wsUrl}/voice/honeypot/stream`, vendorA(s, '/voice/honeypot/stream'));
    if (honeypot.ws) open.push(honeypot.ws);
    expect(honeypot.status).to.equal(101);
  });

  it('refuses even a correctly signed keyless upgrade 401 on a node with no vendor secrets configured', async () => {
    for (const headers of [vendorA(plain), vendorB()])
      expect((await upgrade(filter(plain), headers)).status).to.equal(401);
  });

  it(`caps signed keyless upgrades waiting for their start at ${KEYLESS_PENDING_MAX}: the next is 503, keyed clients are not`, async () => {
    const waiting = await Promise.all(
      Array.from({ length: KEYLESS_PENDING_MAX }, (_, i) => upgrade(filter(s), i % 2 ? vendorA(s) : vendorB())),
    );
    for (const r of waiting) if (r.ws) open.push(r.ws);
    expect(waiting.map((r) => r.status)).to.deep.equal(waiting.map(() => 101));
    const over = await upgrade(filter(s), vendorA(s));
    if (over.ws) open.push(over.ws);
    expect(over.status).to.equal(503);
    expect(JSON.parse(over.body).message).to.match(/keyless/);
    const keyed = await upgrade(`${filter(s)}?key=${s.key}`);
    if (keyed.ws) open.push(keyed.ws);
    expect(keyed.status).to.equal(101);
    // A waiting socket that goes away frees its place.
    waiting[0]!.ws!.terminate();
    await waiting[0]!.closed;
    let again: Upgrade | undefined;
    for (let i = 0; i < 50 && again?.status !== 101; i++) {
      again = await upgrade(filter(s), vendorA(s));
      if (again.ws) open.push(again.ws);
    }
    expect(again?.status).to.equal(101);
  });

  it('closes a signed keyless socket that sends no start well before the 15 s start timeout, with no events', async () => {
    const r = await upgrade(filter(s), vendorA(s));
    open.push(r.ws!);
    const messages: unknown[] = [];
    r.ws!.on('message', (m) => messages.push(m));
    const t0 = Date.now();
    const closed = await r.closed!;
    expect(closed).to.deep.equal({ code: 1008, reason: 'start timeout' });
    expect(Date.now() - t0).to.be.lessThan(10_000);
    expect(messages).to.deep.equal([]);
  });
});
