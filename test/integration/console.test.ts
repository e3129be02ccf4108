import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import WebSocket from 'ws';
import { VoiceClient } from '../../src/client/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CHROMIUM, launchChromium, pngSize } from './helpers/browser.js';
import { ESCALATING_SCAM_CALL } from './helpers/live-client.js';

const SHOTS = path.resolve('test/.tmp');

/** 101 when the socket opens (then closes it), else the refused upgrade's HTTP status. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', reject);
  });
}

describe('operator console (headless Chromium)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let chrome: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page;

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) {
      // Explicitly reported, never silently passed: CI installs chromium (.ci/run).
      this.skip();
    }
    server = await startTestServer();
    chrome = await launchChromium();
    page = await chrome.context.newPage();
  });
  after(async () => {
    await chrome?.close();
    await server?.close();
  });

  it('serves the page without a key but its data only with one', async () => {
    const html = await fetch(`${server.url}/console`);
    expect(html.status).to.equal(200);
    expect(html.headers.get('content-type')).to.match(/^text\/html/);
    const js = await fetch(`${server.url}/console/app.js`);
    expect(js.headers.get('content-type')).to.match(/^text\/javascript/);
    expect((await fetch(`${server.url}/console/tuning`)).status).to.equal(401);
    const tuning = await fetch(`${server.url}/console/tuning`, { headers: { 'X-Auth': server.key } });
    expect(((await tuning.json()) as { tuning: Record<string, unknown> }).tuning).to.include({
      vad_mode: 2,
      vad_hangover_ms: 600,
      model_every_ms: 30_000,
    });
    expect(await upgradeStatus(`${server.wsUrl}/console/stream`)).to.equal(401);
    expect(await upgradeStatus(`${server.wsUrl}/console/stream?key=wrong-key-123`)).to.equal(401);
    expect(await upgradeStatus(`${server.wsUrl}/console/stream?key=${server.key}`)).to.equal(101);
  });

  it('shows a live scam call as it happens: transcript, rising verdict on the timeline, filing outcome', async () => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/console`);
    await page.fill('#key', server.key);
    await page.click('#login button');
    await page.waitForSelector('#status.live');
    expect(await page.isVisible('#login')).to.equal(false);
    // Idle: the tuning in force is shown.
    expect(await page.textContent('#tuning')).to.contain('vad_hangover_ms');

    const client = new VoiceClient({ url: server.url, key: server.key });
    const call = await client.openFilter({ call_id: 'console-1', from: '+12025550123', report: true });
    const started = await call.waitFor('session.started');
    const item = `#sessions li[data-session-id="${started.session_id}"]`;
    await page.waitForSelector(item);
    await page.click(item);

    call.sendText(ESCALATING_SCAM_CALL[0]!);
    await page.waitForSelector('#detail .timeline circle.point');
    const first = Number(await page.getAttribute('#detail .timeline circle.point', 'data-score'));

    for (const line of ESCALATING_SCAM_CALL.slice(1)) call.sendText(line);
    await call.waitFor('verdict');
    // A selector, not waitForFunction: the console's CSP (script-src 'self') forbids the eval that needs.
    await page.locator('#detail .level', { hasText: /^scam$/ }).waitFor();
    const live = await page.$$eval('#detail .timeline circle.point', (cs) =>
      cs.map((c) => Number(c.getAttribute('data-score'))),
    );
    expect(live.length).to.be.at.least(2);
    expect(live.at(-1)!).to.be.greaterThan(first);
    expect(await page.$$eval('#detail .transcript .line', (ls) => ls.length)).to.equal(ESCALATING_SCAM_CALL.length);
    expect(await page.getAttribute('#detail .session', 'data-live')).to.equal('true');

    const ended = await call.finish();
    await page.waitForSelector('#detail .session[data-live="false"]');
    expect(await page.textContent('#detail .filing')).to.equal(`filed: ${ended.reported_numbers} number(s)`);
    expect(await page.textContent('#detail .intel')).to.contain('+18665550142');
    expect(await page.$$eval('#detail .tactics span', (ts) => ts.map((t) => t.textContent))).to.include.members(
      ended.verdict.tactics,
    );
    // The score band rectangles of the timeline are drawn.
    expect(await page.$$eval('#detail .timeline rect.band', (rs) => rs.length)).to.equal(4);

    fs.mkdirSync(SHOTS, { recursive: true });
    const file = path.join(SHOTS, 'console-live-call.png');
    const png = await page.screenshot({ path: file, fullPage: true });
    const { width, height } = pngSize(png);
    expect(width).to.equal(1280);
    expect(height).to.be.at.least(900);
    // A blank page compresses to a few kB; a rendered console is far larger.
    expect(png.length).to.be.greaterThan(20_000);
    expect(errors).to.deep.equal([]);
  });

  it('opens a stored session from the list (GET /voice/sessions/{id})', async () => {
    const client = new VoiceClient({ url: server.url, key: server.key });
    const scanned = await client.scan({ transcript: ESCALATING_SCAM_CALL.join('\n') });
    await page.reload();
    const item = `#sessions li[data-session-id="${scanned.session_id}"]`;
    await page.waitForSelector(item);
    await page.click(item);
    await page.waitForSelector(`#detail .session[data-session-id="${scanned.session_id}"] .timeline circle.point`);
    expect(await page.textContent('#detail .level')).to.equal(scanned.verdict.level);
    expect(await page.$$eval('#detail .transcript .line', (ls) => ls.length)).to.equal(ESCALATING_SCAM_CALL.length);
  });
});
