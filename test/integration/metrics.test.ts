import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { VoiceApiError, VoiceClient } from '../../src/client/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { ESCALATING_SCAM_CALL } from './helpers/live-client.js';

/** Sums the samples of one metric whose labels include `labels` (Prometheus text format). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(m[3]);
  }
  return sum;
}

/** Debian's promtool: on PATH, or unpacked from the `prometheus` package by the test setup. */
function findPromtool(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), path.resolve('test/.tmp/tools/prometheus/usr/bin')];
  return dirs.map((d) => path.join(d, 'promtool')).find((p) => fs.existsSync(p));
}

describe('metrics (Prometheus, VOICE_METRICS_PORT)', function () {
  this.timeout(30_000);
  let server: TestServer;
  let client: VoiceClient;
  const scrape = async (): Promise<string> => {
    const res = await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  before(async () => {
    // The honeypot is off (its upgrades answer 503); a low rate limit lets the test reach a 429.
    server = await startTestServer({
      VOICE_METRICS_PORT: '0',
      VOICE_FEATURES: 'scan,live_filter',
      VOICE_RATE_LIMIT: '40',
    });
    client = new VoiceClient({ url: server.url, key: server.key });
  });
  after(async () => {
    await server.close();
  });

  it('is not served on the public port', async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { 'X-Auth': server.key } });
    expect(res.status).to.equal(404);
  });

  it('shows every operational counter moving after a live session, a scan and refusals', async () => {
    const before = await scrape();
    for (const name of ['nodejs_eventloop_lag_seconds', 'nodejs_eventloop_lag_p99_seconds']) {
      expect(before, name).to.match(new RegExp(`^${name}`, 'm'));
    }

    // A live scam call, reported, with a webhook that may not be posted to (a private address).
    const call = await client.openFilter({ from: '+12025550123', report: true, webhook: 'https://127.0.0.1:9/hook' });
    await call.waitFor('session.started');
    const during = await scrape();
    expect(sample(during, 'voice_live_sessions', { kind: 'filter', protocol: 'raw' })).to.equal(
      sample(before, 'voice_live_sessions', { kind: 'filter', protocol: 'raw' }) + 1,
    );
    for (const line of ESCALATING_SCAM_CALL) call.sendText(line);
    call.sendDtmf('5');
    call.sendAudio(new Uint8Array(320));
    const ended = await call.finish();
    expect(ended.reported).to.equal(true);
    await call.closed;

    // A scan of a transcript, reported.
    await client.scan({ transcript: ESCALATING_SCAM_CALL.join('\n'), from: '+12025550188', report: true });
    // A feature that is off answers 503.
    const refused = await client.openHoneypot().catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(VoiceApiError).with.property('status', 503);
    // Past the rate limit: 429.
    let limited = 0;
    for (let i = 0; i < 80 && limited === 0; i++) {
      const res = await fetch(`${server.url}/voice/capabilities`);
      if (res.status === 429) limited++;
    }
    expect(limited).to.equal(1);

    let after = await scrape();
    for (
      let i = 0;
      i < 50 && sample(after, 'voice_webhook_posts_total') === sample(before, 'voice_webhook_posts_total');
      i++
    ) {
      await new Promise((r) => setTimeout(r, 50));
      after = await scrape();
    }
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);

    expect(sample(after, 'voice_live_sessions', { kind: 'filter', protocol: 'raw' })).to.equal(
      sample(before, 'voice_live_sessions', { kind: 'filter', protocol: 'raw' }),
    );
    expect(moved('voice_frames_in_total', { kind: 'text' })).to.be.at.least(ESCALATING_SCAM_CALL.length);
    expect(moved('voice_frames_in_total', { kind: 'dtmf' })).to.equal(1);
    expect(moved('voice_frames_in_total', { kind: 'audio' })).to.equal(1);
    expect(moved('voice_audio_bytes_in_total')).to.equal(320);
    expect(moved('voice_events_total', { type: 'transcript.line' })).to.equal(ESCALATING_SCAM_CALL.length);
    expect(moved('voice_events_total', { type: 'session.ended' })).to.equal(1);
    expect(moved('voice_verdicts_total', { level: 'scam' })).to.be.at.least(1);
    expect(moved('voice_webhook_posts_total', { outcome: 'blocked' })).to.be.at.least(1);
    expect(moved('voice_webhook_latency_seconds_count')).to.be.at.least(1);
    expect(moved('voice_provider_calls_total', { op: 'analyze', outcome: 'ok' })).to.equal(2);
    expect(moved('voice_provider_latency_seconds_count', { op: 'analyze' })).to.equal(2);
    expect(moved('voice_verdicts_total')).to.be.at.least(2);
    expect(moved('voice_utterance_to_verdict_seconds_count')).to.equal(moved('voice_verdicts_total'));
    expect(moved('voice_credits_charged_total', { product: 'filter' })).to.equal(3);
    expect(moved('voice_credits_charged_total', { product: 'scan' })).to.equal(2);
    expect(moved('voice_complaints_filed_total', { product: 'filter' })).to.equal(ended.reported_numbers);
    expect(moved('voice_complaints_filed_total', { product: 'scan' })).to.be.at.least(1);
    expect(moved('voice_rejected_total', { status: '503', entry: 'honeypot_stream' })).to.equal(1);
    expect(moved('voice_rejected_total', { status: '429', entry: 'http' })).to.equal(1);
    expect(moved('voice_http_requests_total', { route: '/voice/scan', status: '200' })).to.equal(1);
    expect(moved('voice_http_request_duration_seconds_count', { route: '/voice/scan', status: '200' })).to.equal(1);
    expect(
      moved('voice_http_request_duration_seconds_count', { route: '/voice/capabilities', status: '429' }),
    ).to.equal(1);
    // Seconds, not milliseconds: a scan of a short transcript on this node takes well under 10 s.
    const scanSeconds = moved('voice_http_request_duration_seconds_sum', { route: '/voice/scan', status: '200' });
    expect(scanSeconds).to.be.above(0).and.below(10);
  });

  it('passes `promtool check metrics` (names, units, types), after traffic filled every histogram', async function () {
    const promtool = findPromtool();
    // Explicitly reported, never silently passed: CI and `npm test` fetch promtool (.ci/run, scripts/ensure.mjs).
    if (!promtool) this.skip();
    const text = await scrape();
    for (const name of [
      'voice_webhook_latency_seconds',
      'voice_provider_latency_seconds',
      'voice_http_request_duration_seconds',
    ])
      expect(sample(text, `${name}_count`), name).to.be.above(0);
    const r = spawnSync(promtool, ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(r.error).to.equal(undefined);
    expect(`${r.stdout}${r.stderr}`.trim(), 'promtool findings').to.equal('');
    expect(r.status).to.equal(0);
  });
});
