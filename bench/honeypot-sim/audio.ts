/*
 * The honeypot simulation through speech: every scam type calls one persona over the honeypot socket
 * with its lines spoken (speech.ts: Debian voices through a telephone channel) and sent as 20 ms
 * mu-law frames in real time, silence frames between lines as a phone line carries; the node
 * recognises them with the embedded recogniser (VOICE_STT=sphinx) and answers with a real voice
 * (VOICE_TTS=espeak); the scammer hears the persona by recognising the persona's audio (or, with
 * `--hear text`, by reading its `transcript.line`). The same calls are then made in text, for the
 * figures beside.
 *
 *   npx tsx bench/honeypot-sim/audio.ts [--turns 12] [--parallel 3] [--hear audio|text] [--persona margaret] [--write]
 *
 * HONEYPOT_AUDIO_TRACE=1 prints each turn (what the scammer said, ≈ what the node recognised of it,
 * → what the scammer heard back).
 *
 * "Minutes on the line" counts the audio both sides sent plus one second between turns (as the text
 * simulation does), not the wall clock, which the recogniser's lag on a loaded machine stretches.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { PERSONAS } from '../../src/honeypot/personas.js';
import { languageModel } from '../../src/providers/stt/sphinx-model.js';
import type { Persona } from '../../src/honeypot/types.js';
import { startTestServer, type TestServer } from '../../test/helpers/server.js';
import { Scammer } from './scammer.js';
import { SCAMS, type ScamProfile } from './scams.js';
import { recognise, renderLine, SCAMMER_VOICES, wordErrorRate, type ScammerVoice } from './speech.js';

export interface AudioCallResult {
  mode: 'audio' | 'text';
  scam: string;
  voice: string;
  turns: number;
  minutes: number;
  wallMinutes: number;
  intelFields: string[];
  intel: Record<string, unknown>;
  filed: boolean;
  why: string;
  sessionId?: string;
  /** Persona lines that came back (transcript.line count). */
  personaLines: number;
  /** `session.error` messages, if any. */
  errors: string[];
  /** Word error rate of the node's recognition of the scammer, and of the scammer's ear on the persona. */
  callerWer?: number;
  personaWer?: number;
}

const FRAME = 160; // 20 ms of 8 kHz mu-law
const SILENCE = Buffer.alloc(FRAME, 0xff);
const TURN_GAP_S = 1;
/** 2 s of silence after each line: enough for the recogniser to close the utterance. */
const TRAILING_SILENCE_FRAMES = 100;

export interface CallOptions {
  mode: 'audio' | 'text';
  maxTurns: number;
  hear: 'audio' | 'text';
  voice: ScammerVoice;
  /** Quiet after the persona's last line before the scammer decides it has heard the whole answer. */
  settleMs?: number;
  /** Longest wait for an answer (the recogniser lags under load). */
  answerTimeoutMs?: number;
}

/** One scam call; resolves when the session ended. */
export async function callOverAudio(
  server: TestServer,
  persona: Persona,
  scam: ScamProfile,
  o: CallOptions,
): Promise<AudioCallResult> {
  const t0 = Date.now();
  const ws = new WebSocket(`${server.wsUrl}/voice/honeypot/stream?key=${server.key}&persona=${persona.id}`);
  const events: Array<Record<string, unknown>> = [];
  const audio: Buffer[] = []; // persona audio of the utterance being received
  const utterances: Buffer[] = [];
  let lastActivity = Date.now();
  ws.on('message', (data, binary) => {
    lastActivity = Date.now();
    if (binary) {
      audio.push(data as Buffer);
      return;
    }
    const e = JSON.parse(data.toString()) as Record<string, unknown>;
    if (e.type === 'mark' || e.type === 'clear') utterances.push(Buffer.concat(audio.splice(0)));
    events.push(e);
  });
  const closed = new Promise<void>((r) => ws.on('close', () => r()));
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  const ended = () => events.some((e) => e.type === 'session.ended');
  const personaLines = () => events.filter((e) => e.type === 'transcript.line' && e.speaker === persona.name);
  const callerLines = () => events.filter((e) => e.type === 'transcript.line' && e.speaker === 'caller');

  // The phone line: 20 ms frames, speech when queued, then silence for the recogniser to end the
  // utterance on; after that nothing until the next line, as a phone with silence suppression sends
  // (continuous silence would only add to the recogniser's work on a loaded machine).
  const queue: Buffer[] = [];
  let sent = 0;
  let trailing = TRAILING_SILENCE_FRAMES;
  let lineDone: (() => void) | null = null;
  const started = Date.now();
  let pacer: NodeJS.Timeout | undefined;
  const tick = () => {
    const due = Math.floor((Date.now() - started) / 20);
    while (sent < due && ws.readyState === WebSocket.OPEN) {
      const f = queue.shift();
      sent += 1;
      if (f) ws.send(f);
      else if (trailing > 0) {
        ws.send(SILENCE);
        trailing -= 1;
      }
      if (f && queue.length === 0) {
        trailing = TRAILING_SILENCE_FRAMES;
        lineDone?.();
        lineDone = null;
      }
    }
  };
  const speak = (mulaw: Buffer) =>
    new Promise<void>((resolve) => {
      for (let i = 0; i < mulaw.length; i += FRAME) {
        const f = Buffer.alloc(FRAME, 0xff);
        mulaw.copy(f, 0, i, Math.min(i + FRAME, mulaw.length));
        queue.push(f);
      }
      lineDone = resolve;
    });

  /** Waits for the persona's answer: at least `n` lines (and, over audio, their audio sent), then quiet. */
  const settle = o.settleMs ?? (o.mode === 'audio' ? 3000 : 300);
  const waitAnswer = async (n: number): Promise<boolean> => {
    const since = Date.now();
    for (;;) {
      const lines = personaLines().length;
      const done = lines >= n && (o.mode === 'text' || utterances.length >= lines);
      if (done && Date.now() - lastActivity >= settle) return true;
      if (ended() || Date.now() - since > (o.answerTimeoutMs ?? 120_000)) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  ws.send(
    JSON.stringify({
      type: 'start',
      call_id: `audio-sim-${scam.type}-${o.mode}`,
      from: scam.from,
      encoding: 'mulaw',
      sample_rate: 8000,
    }),
  );
  if (o.mode === 'audio') pacer = setInterval(tick, 20);

  const scammer = new Scammer(scam, 'patient', o.maxTurns);
  let why = 'hung up';
  let seconds = 0;
  const said: string[] = [];
  const heardRef: string[] = [];
  const heardHyp: string[] = [];
  let heardUtterances = 0;
  let traced = 0; // caller transcript lines already traced
  let line: string | null = null;
  if (await waitAnswer(1)) {
    line = scammer.opening();
  } else why = 'no greeting';
  const hear = async (): Promise<string> => {
    const lines = personaLines().slice(heardUtterances);
    const texts = lines.map((l) => String(l.text));
    const news = utterances.slice(heardUtterances);
    heardUtterances = personaLines().length;
    for (const u of news) seconds += u.length / 8000;
    if (o.mode === 'text') for (const t of texts) seconds += t.split(/\s+/).length * (60 / (persona.tts.rate ?? 150));
    if (o.mode === 'text' || o.hear === 'text') return texts.join(' ');
    const hyp = await recognise(Buffer.concat(news));
    heardRef.push(texts.join(' '));
    heardHyp.push(hyp);
    return hyp;
  };
  if (line !== null) await hear();
  while (line !== null) {
    said.push(line);
    const before = personaLines().length;
    if (o.mode === 'audio') {
      const mulaw = await renderLine(line, o.voice);
      seconds += mulaw.length / 8000;
      await speak(mulaw);
    } else {
      ws.send(JSON.stringify({ type: 'transcript', text: line, end_of_turn: true }));
      seconds += line.split(/\s+/).length / 2.5;
    }
    seconds += 2 * TURN_GAP_S;
    if (!(await waitAnswer(before + 1))) {
      why = ended() ? 'session ended' : 'persona did not answer';
      break;
    }
    const heard = await hear();
    if (process.env.HONEYPOT_AUDIO_TRACE) {
      // What the node made of the line: where intel is lost, this shows how.
      const recognised = callerLines()
        .slice(traced)
        .map((l) => String(l.text))
        .join(' | ');
      traced = callerLines().length;
      const node = o.mode === 'audio' ? `\n  ≈ ${recognised}` : '';
      process.stderr.write(`[${scam.type} ${scammer.turns}] ${line}${node}\n  → ${heard}\n`);
    }
    const next = scammer.reply(heard);
    line = next.line;
    if (next.why) why = next.why;
  }
  clearInterval(pacer);
  if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'stop' }));
  await closed;
  const end = events.find((e) => e.type === 'session.ended') ?? {};
  const startedEv = events.find((e) => e.type === 'session.started') ?? {};
  const intel = (end.intel ?? {}) as Record<string, unknown>;
  const callerText = callerLines()
    .map((l) => String(l.text))
    .join(' ');
  return {
    mode: o.mode,
    scam: scam.type,
    voice: o.mode === 'audio' ? o.voice : 'text',
    turns: scammer.turns,
    minutes: seconds / 60,
    wallMinutes: (Date.now() - t0) / 60_000,
    intelFields: Object.keys(intel).filter((k) => k !== 'scripts' && k !== 'dtmf'),
    intel,
    filed: end.reported === true,
    why,
    sessionId: startedEv.session_id as string | undefined,
    personaLines: personaLines().length,
    errors: events.filter((e) => e.type === 'session.error').map((e) => String(e.error ?? e.message)),
    callerWer: o.mode === 'audio' ? wordErrorRate(said.join(' '), callerText) : undefined,
    personaWer: heardRef.length ? wordErrorRate(heardRef.join(' '), heardHyp.join(' ')) : undefined,
  };
}

async function pool<T, R>(items: readonly T[], n: number, f: (x: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i]!, i);
      }
    }),
  );
  return out;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export async function runAudioSim(opts: {
  maxTurns: number;
  parallel: number;
  hear: 'audio' | 'text';
  persona: Persona;
}): Promise<{ audio: AudioCallResult[]; text: AudioCallResult[]; markdown: string; load: string }> {
  const loadBefore = os.loadavg();
  // Read from the environment at session start. The harness's own synthesis and recognition stop the
  // line for seconds under load; a caller who is merely slow must not be taken for one who left.
  const prevSilence = process.env.VOICE_HONEYPOT_SILENCE_MS;
  process.env.VOICE_HONEYPOT_SILENCE_MS = '120000';
  const audioServer = await startTestServer({
    VOICE_STT: 'sphinx',
    VOICE_TTS: 'espeak',
    VOICE_LOG_LEVEL: 'warn',
  });
  let audio: AudioCallResult[];
  try {
    audio = await pool(SCAMS, opts.parallel, (scam, i) =>
      callOverAudio(audioServer, opts.persona, scam, {
        mode: 'audio',
        maxTurns: opts.maxTurns,
        hear: opts.hear,
        voice: SCAMMER_VOICES[i % SCAMMER_VOICES.length]!,
      }),
    );
  } finally {
    await audioServer.close();
    if (prevSilence === undefined) delete process.env.VOICE_HONEYPOT_SILENCE_MS;
    else process.env.VOICE_HONEYPOT_SILENCE_MS = prevSilence;
  }
  const loadAfter = os.loadavg();
  const textServer = await startTestServer({ VOICE_TTS: 'none', VOICE_LOG_LEVEL: 'warn' });
  let text: AudioCallResult[];
  try {
    text = await pool(SCAMS, 1, (scam) =>
      callOverAudio(textServer, opts.persona, scam, {
        mode: 'text',
        maxTurns: opts.maxTurns,
        hear: 'text',
        voice: 'rms',
      }),
    );
  } finally {
    await textServer.close();
  }
  const load = `load average ${loadBefore.map((x) => x.toFixed(1)).join(' ')} before, ${loadAfter.map((x) => x.toFixed(1)).join(' ')} after the audio calls, ${os.availableParallelism()} CPUs`;
  return { audio, text, load, markdown: markdown(audio, text, opts, load) };
}

function markdown(
  audio: AudioCallResult[],
  text: AudioCallResult[],
  opts: { maxTurns: number; hear: string; persona: Persona },
  load: string,
): string {
  const rows = SCAMS.map((s) => {
    const a = audio.find((r) => r.scam === s.type)!;
    const t = text.find((r) => r.scam === s.type)!;
    return `| ${s.type} | ${a.voice} | ${a.turns} / ${t.turns} | ${a.minutes.toFixed(1)} / ${t.minutes.toFixed(1)} | ${a.intelFields.length} / ${t.intelFields.length} | ${a.intelFields.join(', ') || '–'} | ${Math.round(100 * (a.callerWer ?? 0))}% | ${a.personaWer === undefined ? '–' : `${Math.round(100 * a.personaWer)}%`} | ${a.why} | ${a.wallMinutes.toFixed(1)} |`;
  });
  const avg = (rs: AudioCallResult[], f: (r: AudioCallResult) => number) => mean(rs.map(f)).toFixed(1);
  return [
    `${SCAMS.length} scam types × persona ${opts.persona.id}, patient scammer, calls capped at ${opts.maxTurns} turns. Audio: scammer lines by flite (rms, awb, kal16, slt) and festival (HTS slt), band-limited 300–3400 Hz, 8 kHz mu-law, 20 ms frames in real time; node with VOICE_STT=sphinx (language model ${languageModel().name}) and VOICE_TTS=espeak; the scammer hears the persona by ${opts.hear === 'audio' ? "PocketSphinx (offline, stock model) on the persona's audio" : "the persona's transcript.line text"}. Text: the same calls as transcript frames to a text-only node.`,
    '',
    `Over audio: **${avg(audio, (r) => r.turns)} turns**, ${avg(audio, (r) => r.minutes)} minutes on the line, **${avg(audio, (r) => r.intelFields.length)} intel fields** per call (target ≥ 10 turns, ≥ 3 fields); filed ${audio.filter((r) => r.filed).length}/${audio.length}. In text: ${avg(text, (r) => r.turns)} turns, ${avg(text, (r) => r.minutes)} minutes, ${avg(text, (r) => r.intelFields.length)} fields; filed ${text.filter((r) => r.filed).length}/${text.length}. Word error rate, node on the scammer: ${Math.round(100 * mean(audio.map((r) => r.callerWer ?? 0)))}%${audio.some((r) => r.personaWer !== undefined) ? `; scammer's ear on the persona: ${Math.round(100 * mean(audio.filter((r) => r.personaWer !== undefined).map((r) => r.personaWer!)))}%` : ''}. Host: ${load}.`,
    '',
    '| scam | scammer voice | turns audio / text | minutes audio / text | intel fields audio / text | fields over audio | WER node on scammer | WER scammer on persona | why it ended (audio) | wall minutes |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function arg(args: string[], name: string, dflt: string): string {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1]! : dflt;
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim();
  } catch {
    return 'unknown';
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const persona = PERSONAS.find((p) => p.id === arg(args, '--persona', 'margaret')) ?? PERSONAS[0]!;
  // The commit the code was loaded from: the run takes a quarter of an hour, and HEAD may move meanwhile.
  const loaded = commit();
  const res = await runAudioSim({
    maxTurns: Number(arg(args, '--turns', '12')),
    parallel: Number(arg(args, '--parallel', '3')),
    hear: arg(args, '--hear', 'audio') === 'text' ? 'text' : 'audio',
    persona,
  });
  const dir = path.dirname(fileURLToPath(import.meta.url));
  fs.writeFileSync(path.join(dir, 'audio-results.json'), JSON.stringify({ audio: res.audio, text: res.text }, null, 2));
  const md = `${res.markdown}\n\nMachine: ${os.cpus()[0]?.model ?? 'unknown'}, ${new Date().toISOString().slice(0, 16)}Z, commit ${loaded}.`;
  console.log(md);
  if (args.includes('--write')) {
    const file = path.join(dir, '../RESULTS.md');
    const begin = '<!-- honeypot-audio:begin -->';
    const end = '<!-- honeypot-audio:end -->';
    const section = `${begin}\n### The honeypot over audio\n\n${md}\n\nReproduce: \`npx tsx bench/honeypot-sim/audio.ts --write\`.\n${end}`;
    const current = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(
      file,
      current.includes(begin)
        ? current.replace(new RegExp(`${begin}[\\s\\S]*?${end}`), section)
        : `${current.trimEnd()}\n\n${section}\n`,
    );
  }
  process.exit(0);
}
