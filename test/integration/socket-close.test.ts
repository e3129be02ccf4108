import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, launchChromium } from './helpers/browser.js';

/**
 * The close after `session.ended` as standard WHATWG WebSocket clients see it. RFC 6455 §7.1.1: after
 * the closing handshake the server closes the TCP connection first. Clients that wait for that (Node's
 * global WebSocket never fires `close` without it; Chromium gives up after its own 2 s) must see the
 * close promptly, not only the `ws` package, which fires on the close frame alone.
 */

/** What a client reports: the close and how long after `session.ended` it came, or that it never came. */
interface CloseSeen {
  code?: number;
  reason?: string;
  afterEndedMs?: number;
  events?: string[];
  hung?: boolean;
}

/**
 * One filter call from a standard WebSocket: start, a line, stop; then the close. Runs as written in
 * Node (global WebSocket) and in a browser page, so both clients run the same code.
 */
function whatwgCall(url: string, guardMs: number): Promise<CloseSeen> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    const events: string[] = [];
    let endedAt = NaN;
    const guard = setTimeout(() => resolve({ hung: true, events }), guardMs);
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: 'start', call_id: 'close-1', from: '+12025550123', sample_rate: 8000 }));
      ws.send(JSON.stringify({ type: 'transcript', text: 'Hello, just calling about lunch.' }));
      ws.send(JSON.stringify({ type: 'stop' }));
    };
    ws.onmessage = (m) => {
      const type = (JSON.parse(String(m.data)) as { type: string }).type;
      events.push(type);
      if (type === 'session.ended') endedAt = performance.now();
    };
    ws.onclose = (c) => {
      clearTimeout(guard);
      resolve({ code: c.code, reason: c.reason, afterEndedMs: performance.now() - endedAt, events });
    };
  });
}

/** Runs `whatwgCall` in a separate Node 20 process with its WHATWG WebSocket (undici) switched on. */
function nodeGlobalClient(url: string, guardMs: number): Promise<CloseSeen> {
  const script = `const whatwgCall = ${whatwgCall.toString()};
whatwgCall(process.argv[1], ${guardMs}).then((r) => { console.log(JSON.stringify(r)); process.exit(0); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--experimental-websocket', '--no-warnings', '-e', script, url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`client exited ${code}: ${err}`));
      resolve(JSON.parse(out) as CloseSeen);
    });
  });
}

/** Chromium's own timeout is 2 s; a close that waits on it is the defect. */
const PROMPT_MS = 500;
const GUARD_MS = 5000;

describe('socket close after session.ended, as WHATWG clients see it', function () {
  this.timeout(40_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  const url = () => `${server.wsUrl}/voice/filter/stream?key=${server.key}`;

  it("Node's global WebSocket (undici) fires close 1000 promptly after session.ended", async () => {
    const seen = await nodeGlobalClient(url(), GUARD_MS);
    expect(seen.hung, `no close within ${GUARD_MS} ms; events ${seen.events?.join(',')}`).to.not.equal(true);
    expect(seen.events?.at(-1)).to.equal('session.ended');
    expect(seen).to.include({ code: 1000, reason: 'session ended' });
    expect(seen.afterEndedMs).to.be.below(PROMPT_MS);
  });

  it('headless Chromium fires close 1000 promptly after session.ended, not after its 2 s timeout', async function () {
    if (!fs.existsSync(CHROMIUM)) this.skip(); // CI installs chromium (.ci/run)
    const chrome = await launchChromium();
    try {
      const page = await chrome.context.newPage();
      const seen = await page.evaluate(
        async ([fn, u, guard]) => {
          // The same client code as in Node, shipped as source.
          const call = new Function(`return (${fn})`)() as typeof whatwgCall;
          return call(u, guard);
        },
        [whatwgCall.toString(), url(), GUARD_MS] as const,
      );
      expect(seen.hung, `no close within ${GUARD_MS} ms`).to.not.equal(true);
      expect(seen.events?.at(-1)).to.equal('session.ended');
      expect(seen).to.include({ code: 1000, reason: 'session ended' });
      expect(seen.afterEndedMs).to.be.below(PROMPT_MS);
    } finally {
      await chrome.close();
    }
  });
});
