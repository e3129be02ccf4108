import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import WebSocket from 'ws';
import { metrics } from '../../src/observability/metrics.js';
import { readJson } from '../../src/server/http/json.js';
import type { Mount } from '../../src/server/types.js';
import { HttpError, ok, type Route } from '../../src/server/types.js';
import { SCAN_BODY_LIMIT } from '../../src/domain/limits.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

type Json = Record<string, unknown>;
const execFileP = promisify(execFile);

const testRoutes: Route[] = [
  {
    method: 'POST',
    path: '/test/echo',
    auth: 'header',
    bodyLimit: 1024,
    timeoutMs: 1500,
    handle: async (req) => ok({ got: readJson(req), bytes: req.body.length }),
  },
  {
    method: 'POST',
    path: '/test/query-key',
    auth: 'header-or-query',
    handle: async (req) => ok({ keyed: req.key !== undefined }),
  },
  {
    method: 'GET',
    path: '/test/boom',
    auth: 'none',
    handle: async () => {
      throw new Error('secret internals');
    },
  },
  {
    method: 'GET',
    path: '/test/teapot',
    auth: 'none',
    handle: async () => {
      throw new HttpError(418, 'field: short and stout', { 'X-Extra': 'yes' });
    },
  },
  {
    method: 'GET',
    path: '/test/hang',
    auth: 'none',
    timeoutMs: 300,
    handle: (req) =>
      new Promise((_resolve, reject) => req.signal.addEventListener('abort', () => reject(req.signal.reason as Error))),
  },
];

/** Sends raw bytes and resolves with whatever the server wrote before closing or `waitMs`. */
function rawExchange(port: number, write: (sock: net.Socket) => void, waitMs = 3000): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => {
      sock.destroy();
      resolve(out);
    }, waitMs);
    sock.on('data', (d) => (out += d.toString()));
    sock.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    sock.on('error', reject);
    sock.on('connect', () => write(sock));
  });
}

function jsonOf(raw: string): Json {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Json;
}

describe('integration/http: bodies, errors, time-outs', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({}, { routes: testRoutes });
  });
  after(async () => s?.close());

  function post(path: string, body: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${s.url}${path}`, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'X-Auth': s.key, ...headers },
    });
  }

  it('hands a JSON body to the route', async () => {
    const res = await post('/test/echo', '{"a":1}');
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ status: 'success', got: { a: 1 }, bytes: 7 });
  });

  it('refuses bad JSON with 400 naming the body', async () => {
    for (const bad of ['{"a":', 'not json', '[1,2]', 'null']) {
      const res = await post('/test/echo', bad);
      expect(res.status, bad).to.equal(400);
      const body = (await res.json()) as Json;
      expect(body.status).to.equal('error');
      expect(body.message).to.match(/^body: /);
    }
  });

  it('refuses a declared oversized body with 413 before reading it', async () => {
    const res = await post('/test/echo', JSON.stringify({ pad: 'x'.repeat(2000) }));
    expect(res.status).to.equal(413);
    const body = (await res.json()) as Json;
    expect(body).to.deep.equal({ status: 'error', message: 'body: larger than the limit of 1024 bytes' });
  });

  it('refuses 12 MB of nested brackets on /voice/scan with 400 naming the cause, without parsing it', async () => {
    const res = await fetch(`${s.url}/voice/scan`, {
      method: 'POST',
      body: '['.repeat(12 * 1024 * 1024),
      headers: { 'Content-Type': 'application/json', 'X-Auth': s.key },
    });
    expect(res.status).to.equal(400);
    expect(await res.json()).to.deep.equal({ status: 'error', message: 'body: JSON nested deeper than 32 levels' });
  });

  it('cuts off a chunked body once it passes the limit', async () => {
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: s.port, path: '/test/echo', method: 'POST', headers: { 'X-Auth': s.key } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write('{"pad":"');
      for (let i = 0; i < 8; i++) req.write('y'.repeat(256));
      req.end('"}');
    });
    expect(status).to.equal(413);
    expect(JSON.parse(text)).to.include({ status: 'error' });
  });

  it('treats a request without Content-Length or Transfer-Encoding as bodiless', async () => {
    const started = Date.now();
    const raw = await rawExchange(s.port, (sock) => {
      sock.write(`POST /test/echo HTTP/1.1\r\nHost: x\r\nX-Auth: ${s.key}\r\nConnection: close\r\n\r\n`);
    });
    expect(raw).to.match(/^HTTP\/1\.1 400/);
    expect(jsonOf(raw)).to.deep.equal({ status: 'error', message: 'body: a JSON object is required' });
    expect(Date.now() - started).to.be.below(1000);
  });

  it('times out a body that stops arriving, with 408', async () => {
    const started = Date.now();
    const raw = await rawExchange(s.port, (sock) => {
      sock.write(
        `POST /test/echo HTTP/1.1\r\nHost: x\r\nX-Auth: ${s.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`,
      );
    });
    expect(raw).to.match(/^HTTP\/1\.1 408/);
    expect(jsonOf(raw)).to.deep.equal({ status: 'error', message: 'body: not received in time' });
    expect(Date.now() - started).to.be.below(2900);
  });

  it('answers 504 when a handler outlives its time-out, and aborts its signal', async () => {
    const res = await fetch(`${s.url}/test/hang`);
    expect(res.status).to.equal(504);
    expect(await res.json()).to.deep.equal({ status: 'error', message: 'request timed out' });
  });

  it('hides unexpected errors behind a 500 and logs them', async () => {
    const res = await fetch(`${s.url}/test/boom`);
    expect(res.status).to.equal(500);
    expect(await res.json()).to.deep.equal({ status: 'error', message: 'internal error' });
    expect(s.logs.some((l) => l.msg === 'handler failed')).to.equal(true);
  });

  it('renders an HttpError with its status, message and headers', async () => {
    const res = await fetch(`${s.url}/test/teapot`);
    expect(res.status).to.equal(418);
    expect(res.headers.get('x-extra')).to.equal('yes');
    expect(await res.json()).to.deep.equal({ status: 'error', message: 'field: short and stout' });
  });

  it('takes the key from the query where the route allows it', async () => {
    const viaQuery = await fetch(`${s.url}/test/query-key?key=${encodeURIComponent(s.key)}`, { method: 'POST' });
    expect(viaQuery.status).to.equal(200);
    const wrong = await fetch(`${s.url}/test/query-key?key=nope`, { method: 'POST' });
    expect(wrong.status).to.equal(401);
    expect(s.logText()).not.to.include(s.key);
  });

  it('survives a client that disconnects mid-request', async () => {
    await rawExchange(
      s.port,
      (sock) => {
        sock.write(`POST /test/echo HTTP/1.1\r\nHost: x\r\nX-Auth: ${s.key}\r\nContent-Length: 50\r\n\r\n{`);
        setTimeout(() => sock.destroy(), 50);
      },
      500,
    );
    const res = await fetch(`${s.url}/voice/capabilities`);
    expect(res.status).to.equal(200);
  });
});

async function rejected429(): Promise<number> {
  const m = await metrics.rejected.get();
  return m.values.find((v) => v.labels.status === '429' && v.labels.entry === 'http')?.value ?? 0;
}

/** GET from a chosen loopback source address, so per-address and per-key buckets can be told apart. */
function getFrom(localAddress: string, port: number, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, localAddress, headers: { 'X-Auth': key } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

/**
 * Bodies over the cap sent whole, as fetch, curl --data-binary and most SDKs send them: every attempt must
 * get the 413 and its message, never a reset connection (the node reads and drops the rest before closing).
 */
describe('integration/http: over-cap bodies sent whole', function () {
  this.timeout(120_000);
  const ROUNDS = 20;
  let s: TestServer;
  let dir: string;
  before(async () => {
    s = await startTestServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-body-'));
  });
  after(async () => {
    await s?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const CASES = [
    { method: 'POST', path: '/voice/scan', size: 26 * 1024 * 1024, limit: SCAN_BODY_LIMIT },
    { method: 'PUT', path: '/domains/example.com', size: 200 * 1024, limit: 64 * 1024 },
  ] as const;

  for (const c of CASES) {
    const body = Buffer.alloc(c.size, 0x20);
    body.write('{"pad":"');
    const message = `body: larger than the limit of ${c.limit} bytes`;

    it(`${c.method} ${c.path} with ${c.size} bytes: 413 with its message ${ROUNDS} times in a row (fetch)`, async () => {
      for (let i = 0; i < ROUNDS; i++) {
        const res = await fetch(`${s.url}${c.path}`, {
          method: c.method,
          body,
          headers: { 'Content-Type': 'application/json', 'X-Auth': s.key },
        });
        expect(res.status, `attempt ${i}`).to.equal(413);
        expect(await res.json(), `attempt ${i}`).to.deep.equal({ status: 'error', message });
      }
    });

    it(`${c.method} ${c.path} with ${c.size} bytes: 413 with its message ${ROUNDS} times in a row (curl --data-binary)`, async () => {
      const file = path.join(dir, `body-${c.size}`);
      fs.writeFileSync(file, body);
      for (let i = 0; i < ROUNDS; i++) {
        // `Expect:` off: curl then sends the whole body without waiting for an early answer.
        const { stdout } = await execFileP('curl', [
          '-sS',
          '-X',
          c.method,
          '--data-binary',
          `@${file}`,
          '-H',
          'Expect:',
          '-H',
          'Content-Type: application/json',
          '-H',
          `X-Auth: ${s.key}`,
          '-w',
          '\n%{http_code}',
          `${s.url}${c.path}`,
        ]);
        const [json, code] = stdout.split('\n');
        expect(code, `attempt ${i}`).to.equal('413');
        expect(JSON.parse(json!), `attempt ${i}`).to.deep.equal({ status: 'error', message });
      }
    });
  }
});

describe('integration/http: rate limits', () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer({ VOICE_RATE_LIMIT: '5' });
  });
  afterEach(async () => s?.close());

  it('limits each key across addresses', async () => {
    const statuses: number[] = [];
    for (const addr of ['127.0.0.1', '127.0.0.2', '127.0.0.3']) {
      for (let i = 0; i < 2; i++) statuses.push(await getFrom(addr, s.port, '/voice/personas', s.key));
    }
    // Each address spent 2 of its 5; the key spent 6 of its 5.
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
    expect(await getFrom('127.0.0.3', s.port, '/voice/personas', s.otherKey)).to.equal(200);
  });

  it('believes X-Forwarded-For only with VOICE_TRUST_PROXY', async () => {
    const from = async (t: TestServer, forwarded: string): Promise<number> => {
      const res = await fetch(`${t.url}/voice/capabilities`, { headers: { 'X-Forwarded-For': forwarded } });
      await res.arrayBuffer();
      return res.status;
    };
    // Untrusted: every claimed address shares the socket's bucket.
    const direct = [];
    for (let i = 0; i < 6; i++) direct.push(await from(s, `10.0.0.${i}`));
    expect(direct).to.deep.equal([200, 200, 200, 200, 200, 429]);

    const proxied = await startTestServer({ VOICE_RATE_LIMIT: '2', VOICE_TRUST_PROXY: 'true' });
    try {
      // The balancer's own entry is the last one; what the client put before it does not count.
      const a = [];
      for (const claimed of ['1.1.1.1', '9.9.9.9', '8.8.8.8']) a.push(await from(proxied, `${claimed}, 203.0.113.7`));
      expect(a).to.deep.equal([200, 200, 429]);
      expect(await from(proxied, '203.0.113.8')).to.equal(200);
      expect(proxied.logs.some((l) => l.msg === 'http' && l.ip === '203.0.113.7')).to.equal(true);
    } finally {
      await proxied.close();
    }
  });

  it('answers 429 with Retry-After once the per-minute allowance is spent', async () => {
    const before = await rejected429();
    const statuses: number[] = [];
    let limited: Response | undefined;
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${s.url}/voice/capabilities`);
      statuses.push(res.status);
      if (res.status === 429) limited = res;
      else await res.arrayBuffer();
    }
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
    expect(Number(limited!.headers.get('retry-after'))).to.be.within(1, 60);
    const body = (await limited!.json()) as Json;
    expect(body.status).to.equal('error');
    expect(body.message).to.match(/rate limit/);
    expect((await rejected429()) - before).to.equal(2);
  });
});

describe('integration/http: socket mounts and drain', () => {
  it('serves a mounted socket beside the HTTP routes, and awaits its drain hook on close', async () => {
    const events: string[] = [];
    const mount: Mount = (app, ctx) => {
      app.ws('/voice/echo', {
        message: (ws, msg) => {
          ws.send(msg, false);
        },
      });
      ctx.onDrain(async () => {
        await new Promise((r) => setTimeout(r, 50));
        events.push('onDrain');
      });
      return { drain: async () => void events.push('returned') };
    };
    const s = await startTestServer({}, { mounts: [mount] });
    try {
      const ws = new WebSocket(`${s.wsUrl}/voice/echo`);
      const reply = await new Promise<string>((resolve, reject) => {
        ws.on('open', () => ws.send('hi'));
        ws.on('message', (d) => resolve(d.toString()));
        ws.on('error', reject);
      });
      expect(reply).to.equal('hi');
      ws.close();
      // A plain GET on the socket path still gets the JSON shape.
      const res = await fetch(`${s.url}/voice/echo`);
      expect(res.status).to.equal(404);
      expect(((await res.json()) as Json).status).to.equal('error');
    } finally {
      await s.close();
    }
    expect(events.sort()).to.deep.equal(['onDrain', 'returned']);
  });

  it('stops accepting at once and bounds the drain by VOICE_DRAIN_SECONDS', async () => {
    let hookStarted = false;
    const mount: Mount = () => ({
      drain: () => {
        hookStarted = true;
        return new Promise<void>(() => undefined); // never finishes
      },
    });
    const s = await startTestServer({ VOICE_DRAIN_SECONDS: '1' }, { mounts: [mount] });
    const started = Date.now();
    const closing = s.close();
    let refused = false;
    try {
      await fetch(`${s.url}/voice/capabilities`);
    } catch {
      refused = true;
    }
    await closing;
    expect(hookStarted).to.equal(true);
    expect(refused).to.equal(true);
    // The drain itself is cut at one second; closing the providers and the store comes after it.
    const at = (msg: string): number => Number(s.logs.find((l) => l.msg === msg)?.time);
    expect(at('drain deadline passed; stopping anyway') - at('draining')).to.be.within(900, 1500);
    expect(Date.now() - started).to.be.below(10_000);
  });
});

describe('integration/http: metrics listener', () => {
  it('serves Prometheus metrics on VOICE_METRICS_PORT only', async () => {
    const s = await startTestServer({ VOICE_METRICS_PORT: '0' });
    try {
      expect(s.metricsPort).to.be.a('number').and.not.equal(s.port);
      await (await fetch(`${s.url}/voice/capabilities`)).arrayBuffer();
      const res = await fetch(`http://127.0.0.1:${s.metricsPort}/metrics`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      const text = await res.text();
      expect(text).to.match(/voice_http_requests_total\{route="\/voice\/capabilities",status="200"\} \d+/);
      expect((await fetch(`${s.url}/metrics`)).status).to.equal(404);
    } finally {
      await s.close();
    }
  });
});
