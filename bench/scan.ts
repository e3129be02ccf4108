/*
 * Scan throughput: POST /voice/scan of transcripts (rules plus the embedded model) over keep-alive HTTP
 * at concurrency 1 and 32, the in-process scoring rate, and the audio scan's real-time factor.
 */
import autocannon from 'autocannon';
import http from 'node:http';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { createModelProvider } from '../src/providers/llm/index.js';
import { finalAnalysis } from '../pipelines/final-analysis.js';
import { callerText, parseTranscript } from '../src/rules/index.js';
import { espeakAvailable, synthesise, SCAM_SENTENCE } from '../test/fixtures/audio/speech.js';
import { fixtureTranscripts } from './lib/fixtures.js';
import { median, ms } from './lib/stats.js';
import { table } from './lib/report.js';
import { startServer, stopServer } from './lib/procs.js';
import type { Opts } from './run.js';

function post(agent: http.Agent, base: URL, key: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path: '/voice/scan',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth': key, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Keep-alive POSTs of the bodies, in turn, on `concurrency` connections for `seconds` (autocannon: a
 * load generator cheap enough per request that on a shared machine the node, not the client, is measured).
 */
async function load(base: URL, key: string, bodies: string[], concurrency: number, seconds: number) {
  const r = await autocannon({
    url: base.origin,
    connections: concurrency,
    duration: seconds,
    requests: bodies.map((body) => ({
      method: 'POST' as const,
      path: '/voice/scan',
      headers: { 'content-type': 'application/json', 'x-auth': key },
      body,
    })),
  });
  return {
    rate: r.requests.total / r.duration,
    n: r.requests.total,
    failures: r.non2xx + r.errors + r.timeouts,
    p50: r.latency.p50,
    p99: r.latency.p99,
  };
}

const SCAN_WARM_UP_S = 5;

export async function scan(o: Opts): Promise<string> {
  const seconds = o.seconds ?? (o.short ? 3 : 20);
  const texts = fixtureTranscripts('scam-calls.jsonl', 'hard-negatives.jsonl');
  const bodies = texts.map((t) => JSON.stringify({ transcript: t }));
  const out: string[] = [];

  // In process: the scoring a scan does (rules + the embedded model's analysis), nothing else.
  const config = loadConfig({ VOICE_LLM: 'local', VOICE_LOG_LEVEL: 'silent', VOICE_DATA_DIR: '/tmp' });
  const llm = await createModelProvider(config, createLogger('silent'));
  const inputs = texts.map((t) => {
    const utterances = parseTranscript(t);
    return { utterances, callerText: callerText(utterances), product: 'scan' as const };
  });
  const signal = new AbortController().signal;
  const rates: number[] = [];
  for (let round = 0; round < (o.short ? 3 : 7); round++) {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 1000) await finalAnalysis(inputs[n++ % inputs.length]!, llm, signal);
    rates.push(n / ((performance.now() - t0) / 1000));
  }
  await llm?.close?.();

  const { server, url, key } = await startServer('node', { BENCH_STT: 'auto' });
  try {
    const base = new URL(url.replace('ws:', 'http:'));
    // Warm-up: the first scans start the node's analysis workers, and both threads' JIT settles in seconds.
    await load(base, key, bodies, 32, o.short ? 1 : SCAN_WARM_UP_S);
    const rows = [];
    for (const c of [1, 32]) {
      await server.ask({ cmd: 'mark' });
      const r = await load(base, key, bodies, c, seconds);
      // Process-wide CPU (main thread and analysis workers): steadier than the rate on a shared machine.
      const cpu = await server.ask({ cmd: 'sample' });
      rows.push([c, r.n, r.failures, Math.round(r.rate), ms(r.p50), ms(r.p99), ms((cpu.cpuSeconds * 1000) / r.n, 3)]);
    }
    out.push(
      `#### Scan throughput (transcripts: ${texts.length} fixture calls, mean ${Math.round(texts.reduce((a, t) => a + t.length, 0) / texts.length)} characters; ${seconds} s per row after ${o.short ? 1 : SCAN_WARM_UP_S} s of warm-up; load from autocannon in the benchmark's process)`,
      '',
      table(
        [
          'concurrency',
          'requests',
          'non-200',
          'requests / s',
          'p50 latency (ms)',
          'p99 latency (ms)',
          'node CPU / request (ms, all threads)',
        ],
        rows,
      ),
      '',
      `In-process scoring (rules + embedded model analysis, one thread): median **${Math.round(median(rates))} transcripts/s** over ${rates.length} one-second rounds.`,
    );

    if (espeakAvailable) {
      const speech = synthesise(SCAM_SENTENCE);
      const audioSeconds = speech.samples.length / speech.sampleRate;
      const body = JSON.stringify({ audio_base64: speech.wav.toString('base64'), encoding: 'wav' });
      const agent = new http.Agent({ keepAlive: true });
      const times: number[] = [];
      let status = 0;
      for (let i = 0; i < (o.short ? 1 : 5); i++) {
        const t = performance.now();
        status = await post(agent, base, key, body);
        times.push((performance.now() - t) / 1000);
      }
      agent.destroy();
      out.push(
        '',
        status === 200
          ? `Audio scan over HTTP (${audioSeconds.toFixed(1)} s eSpeak WAV, the node's own recogniser, ${times.length} runs): median real-time factor **${(median(times) / audioSeconds).toFixed(3)}** (wall time / audio length).`
          : `Audio scan: not measured (the node answered ${status}: no recogniser installed?).`,
      );
    }
  } finally {
    await stopServer(server);
  }
  return out.join('\n');
}
