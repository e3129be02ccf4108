/*
 * Spoken calls: held-out calls (bench/speech/calls.ts) read by Debian voices the recogniser was not
 * tuned on, through a telephone channel (render.ts), scanned by a real node as audio (POST /voice/scan)
 * and as text, and a few streamed over the live filter socket in real time. Reports word error rate and
 * verdict retention: of the calls the text path puts at ≥ likely_scam (or at scam), how many the audio
 * path keeps; and honest calls that audio raises to ≥ likely_scam when their text does not.
 *
 * Voices: tuning used flite slt and rms (bench/speech/tune.ts); reported here are festival's slt HTS
 * voice and flite awb and kal16, with eSpeak as the worst case.
 */
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { parseWav } from '../../src/audio/wav.js';
import { spokenWords } from '../../src/eval/spoken.js';
import { median, percentile } from '../lib/stats.js';
import { table } from '../lib/report.js';
import { sleep, startServer, stopServer } from '../lib/procs.js';
import type { Opts } from '../run.js';
import { benchCalls, wordErrorRate, type BenchCall } from './calls.js';
import { channelName, telephoneWav, type Channel, type Voice } from './render.js';
import { pool, scan, type Verdict } from './scan.js';

const LEVELS = ['clean', 'suspicious', 'likely_scam', 'scam'];
const rank = (level: string): number => LEVELS.indexOf(level);

interface Condition {
  voice: Voice;
  channel: Channel;
  /** Only the first N calls (the costly extra conditions). */
  calls?: number;
}

/** One call over the live filter socket: 20 ms μ-law frames at the real-time pace, then `stop`. */
async function live(wsBase: string, key: string, wav: Buffer): Promise<{ verdict: Verdict; transcript: string }> {
  const info = parseWav(wav);
  const ulaw = wav.subarray(wav.length - info.data.length);
  const ws = new WebSocket(`${wsBase}/voice/filter/stream?key=${key}`);
  const ended = new Promise<{ verdict: Verdict; transcript: string }>((resolve, reject) => {
    ws.on('message', (data, binary) => {
      if (binary) return;
      const e = JSON.parse(data.toString()) as { type: string; verdict: Verdict; transcript: string };
      if (e.type === 'session.ended') resolve(e);
    });
    ws.on('close', () => reject(new Error('socket closed before session.ended')));
    ws.on('error', reject);
  });
  await new Promise((r, j) => ws.once('open', r).once('error', j));
  ws.send(JSON.stringify({ type: 'start', sample_rate: 8000, encoding: 'mulaw', call_id: 'bench-speech' }));
  const t0 = performance.now();
  for (let i = 0, n = 0; i < ulaw.length; i += 160, n++) {
    const due = t0 + n * 20 - performance.now();
    if (due > 0) await sleep(due);
    ws.send(ulaw.subarray(i, i + 160));
  }
  ws.send(JSON.stringify({ type: 'stop' }));
  const result = await ended;
  ws.close();
  return result;
}

const pct = (x: number): string => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '–');
const of = (a: number, b: number): string => `${a} of ${b}${b ? ` (${Math.round((100 * a) / b)} %)` : ''}`;

interface Row {
  call: BenchCall;
  wer: number;
  audio: Verdict;
  text: Verdict;
}

function summarise(label: string, rows: Row[]): Array<string | number> {
  const wers = rows.map((r) => r.wer);
  const likely = rows.filter((r) => rank(r.text.level) >= 2);
  const scam = rows.filter((r) => r.text.level === 'scam');
  const honest = rows.filter((r) => r.call.label === 'legit');
  const raised = honest.filter((r) => rank(r.audio.level) >= 2 && rank(r.text.level) < 2);
  return [
    label,
    rows.length,
    pct(median(wers)),
    pct(percentile(wers, 90)),
    of(likely.filter((r) => rank(r.audio.level) >= 2).length, likely.length),
    of(scam.filter((r) => r.audio.level === 'scam').length, scam.length),
    of(raised.length, honest.length),
  ];
}

export async function speech(o: Opts): Promise<string> {
  const calls = benchCalls('test', o.short ? [2, 1, 0, 1, 2, 1] : [8, 2, 1, 2, 6, 4]);
  const subset = o.short ? 2 : 8;
  const conditions: Condition[] = [
    { voice: 'festival-slt-hts', channel: { codec: 'mulaw' } },
    { voice: 'flite-awb', channel: { codec: 'mulaw' } },
    { voice: 'flite-kal16', channel: { codec: 'mulaw' } },
    { voice: 'flite-awb', channel: { codec: 'alaw' }, calls: subset },
    { voice: 'festival-slt-hts', channel: { codec: 'mulaw', snrDb: 15 }, calls: subset },
    { voice: 'espeak', channel: { codec: 'mulaw' }, calls: subset },
  ];
  const cache = path.join(os.tmpdir(), 'voice-shield-speech');
  const { server, url, key } = await startServer('node', { BENCH_STT: 'auto' });
  const base = url.replace('ws:', 'http:');
  const out: string[] = [];
  try {
    const text = new Map<string, Verdict>();
    for (const c of calls) text.set(c.id, (await scan(base, key, { transcript: c.transcript })).verdict);

    const rows: string[][] = [];
    const allRows: Row[] = [];
    const t0 = performance.now();
    let audioSeconds = 0;
    for (const cond of conditions) {
      const chosen = calls.slice(0, cond.calls ?? calls.length);
      const results: Row[] = [];
      await pool(chosen, 2, async (call) => {
        const wav = telephoneWav(cache, cond.voice, call.spoken, cond.channel);
        audioSeconds += (wav.length - 44) / 8000;
        const r = await scan(base, key, { audio_base64: wav.toString('base64'), encoding: 'wav', language: 'en-US' });
        const wer = wordErrorRate(call.words, spokenWords(r.transcript));
        results.push({ call, wer, audio: r.verdict, text: text.get(call.id)! });
      });
      results.sort((a, b) => a.call.id.localeCompare(b.call.id));
      allRows.push(...results);
      rows.push(summarise(`${cond.voice}, ${channelName(cond.channel)}`, results).map(String));
      console.error(`[speech] ${cond.voice} ${channelName(cond.channel)}: ${rows.at(-1)!.slice(2).join(' | ')}`);
    }
    const wall = (performance.now() - t0) / 1000;

    // Live: the first calls of the natural voice, streamed in real time.
    const liveRows: Row[] = [];
    for (const call of calls.slice(0, o.short ? 1 : 4)) {
      const wav = telephoneWav(cache, 'festival-slt-hts', call.spoken, { codec: 'mulaw' });
      const r = await live(url, key, wav);
      liveRows.push({
        call,
        wer: wordErrorRate(call.words, spokenWords(r.transcript.replace(/^\w+:\s*/gm, ''))),
        audio: r.verdict,
        text: text.get(call.id)!,
      });
    }
    rows.push(summarise('live socket, festival-slt-hts, μ-law (real time)', liveRows).map(String));

    const scams = calls.filter((c) => c.label === 'scam').length;
    out.push(
      `#### Spoken calls (${calls.length} held-out calls: ${scams} scams, ${calls.length - scams} honest; each cut to its first ~110 words; audio scans ${Math.round(audioSeconds)} s of speech in ${Math.round(wall)} s, 2 at a time)`,
      '',
      table(
        [
          'voice, channel',
          'calls',
          'median WER',
          'p90 WER',
          'text ≥ likely_scam kept',
          'text scam kept',
          'honest raised',
        ],
        rows,
      ),
      '',
      'Text path: the written transcript through `POST /voice/scan`. Audio: the same call rendered by the voice, band-limited to 300–3400 Hz at 8 kHz and G.711-coded (sox), as a WAV upload. Tuning voices (flite slt, rms) are not reported.',
    );
  } finally {
    await stopServer(server);
  }
  return out.join('\n');
}
