/*
 * Honeypot simulation: scripted scammers (several scam types) call the honeypot over a real socket,
 * one call per persona and scam type (repeated), and we measure how long each persona keeps them on
 * the line, how many turns, which intel fields were extracted and whether the number was filed.
 *
 *   npx tsx bench/honeypot-sim/run.ts [--repeat N] [--write]
 *
 * The node runs text-only (VOICE_TTS=none) so a call takes milliseconds, not minutes; "minutes on the
 * line" is simulated from the words spoken: the persona at the seconds per word its eSpeak voice really
 * takes (measured first on its own lines), the scammer at 150 words a minute, one second between turns.
 * `--write` puts the tables into bench/RESULTS.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { PERSONAS } from '../../src/honeypot/personas.js';
import type { Persona } from '../../src/honeypot/types.js';
import { createEspeak } from '../../src/providers/tts/espeak.js';
import { startTestServer, type TestServer } from '../../test/helpers/server.js';
import { Scammer, SCAMMER_STYLES, type ScammerStyle } from './scammer.js';
import { SCAMS, type ScamProfile } from './scams.js';

interface CallResult {
  persona: string;
  engine: string;
  scam: string;
  style: ScammerStyle;
  turns: number;
  simulatedMinutes: number;
  intelFields: string[];
  filed: boolean;
  reportedNumbers: number;
  why: string;
}

const SCAMMER_WPM = 150;
const TURN_GAP_S = 1;

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Seconds per word of each persona's eSpeak voice, measured on its greeting and stalls. */
async function measureVoices(): Promise<Map<string, number>> {
  const tts = createEspeak();
  const out = new Map<string, number>();
  try {
    for (const p of PERSONAS) {
      const sample = [p.greeting!, ...(p.stalls ?? [])];
      let seconds = 0;
      for (const text of sample) {
        const a = await tts.synthesize(text, p.tts.espeak, new AbortController().signal, p.tts);
        seconds += a.pcm.length / a.sampleRate;
      }
      out.set(p.id, seconds / words(sample.join(' ')));
    }
  } finally {
    await tts.close?.();
  }
  return out;
}

async function call(
  server: TestServer,
  persona: Persona,
  scam: ScamProfile,
  secondsPerWord: number,
  engine: Engine = 'scripted',
  style: ScammerStyle = 'patient',
): Promise<CallResult> {
  const ws = new WebSocket(`${server.wsUrl}/voice/honeypot/stream?key=${server.key}&persona=${persona.id}`);
  const events: Array<Record<string, unknown>> = [];
  let wake: (() => void) | null = null;
  ws.on('message', (data, binary) => {
    if (binary) return;
    events.push(JSON.parse(data.toString()) as Record<string, unknown>);
    wake?.();
  });
  const closed = new Promise<void>((r) => ws.on('close', () => r()));
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => resolve());
    ws.on('error', reject);
  });
  const personaLines = () => events.filter((e) => e.type === 'transcript.line' && e.speaker === persona.name);
  const waitPersona = async (n: number): Promise<boolean> => {
    const t0 = Date.now();
    while (personaLines().length < n) {
      if (events.some((e) => e.type === 'session.ended') || Date.now() - t0 > 5000) return false;
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 50);
      });
    }
    return true;
  };

  ws.send(
    JSON.stringify({
      type: 'start',
      call_id: `sim-${persona.id}-${scam.type}`,
      from: scam.from,
      encoding: 'mulaw',
      sample_rate: 8000,
    }),
  );
  await waitPersona(1);
  const scammer = new Scammer(scam, style);
  let seconds = words(String(personaLines()[0]?.text ?? '')) * secondsPerWord;
  let line: string | null = scammer.opening();
  let why = 'hung up';
  let expected = 1;
  while (line !== null) {
    ws.send(JSON.stringify({ type: 'transcript', text: line, end_of_turn: true }));
    seconds += words(line) / (SCAMMER_WPM / 60) + TURN_GAP_S;
    expected += 1;
    if (!(await waitPersona(expected))) {
      why = 'persona did not answer';
      break;
    }
    const reply = String(personaLines().at(-1)!.text);
    seconds += words(reply) * secondsPerWord + TURN_GAP_S;
    const next = scammer.reply(reply);
    line = next.line;
    if (next.why) why = next.why;
  }
  ws.send(JSON.stringify({ type: 'stop' }));
  await closed;
  const ended = events.find((e) => e.type === 'session.ended') ?? {};
  const intel = (ended.intel ?? {}) as Record<string, unknown>;
  return {
    persona: persona.id,
    engine,
    scam: scam.type,
    style,
    turns: scammer.turns,
    simulatedMinutes: seconds / 60,
    intelFields: Object.keys(intel).filter((k) => k !== 'scripts' && k !== 'dtmf'),
    filed: ended.reported === true,
    reportedNumbers: Number(ended.reported_numbers ?? 0),
    why,
  };
}

/**
 * Controls, in process (no socket): the same scammers against two naive personas, to show the scammer
 * model is not simply lenient. "parrot" says one line again and again; "stall-only" cycles stalls and
 * never asks anything.
 */
function controls(): Array<{ engine: string; turns: number }> {
  const parrot = () => 'Sorry, could you repeat that?';
  const stalls = PERSONAS[0]!.stalls!;
  const out: Array<{ engine: string; turns: number }> = [];
  for (const [engine, make] of [
    ['parrot', () => parrot],
    [
      'stall-only',
      () => {
        let i = 0;
        return () => stalls[i++ % stalls.length]!;
      },
    ],
  ] as const) {
    for (const scam of SCAMS) {
      const scammer = new Scammer(scam, 'patient');
      const speak = make();
      let line: string | null = scammer.opening();
      while (line !== null) line = scammer.reply(speak()).line;
      out.push({ engine, turns: scammer.turns });
    }
  }
  return out;
}

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

function table(results: CallResult[], key: 'persona' | 'scam'): string {
  const groups = [...new Set(results.map((r) => r[key]))];
  const rows = groups.map((g) => {
    const rs = results.filter((r) => r[key] === g);
    return `| ${g} | ${rs[0]!.engine} | ${rs.length} | ${mean(rs.map((r) => r.simulatedMinutes)).toFixed(1)} | ${mean(rs.map((r) => r.turns)).toFixed(1)} | ${mean(rs.map((r) => r.intelFields.length)).toFixed(1)} | ${Math.round((100 * rs.filter((r) => r.filed).length) / rs.length)}% |`;
  });
  return [
    `| ${key} | engine | calls | minutes on the line | turns | intel fields | filed |`,
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

type Engine = 'scripted' | 'lenny';
const ENGINES: readonly Engine[] = ['scripted', 'lenny'];

/**
 * Every scam type against every scammer style, once per engine, the personas taken in turn: how much
 * longer the scripted engine keeps each kind of caller than the fixed-loop baseline does.
 */
async function engineMatrix(voices: Map<string, number>, repeat: number): Promise<CallResult[]> {
  const out: CallResult[] = [];
  for (const engine of ENGINES) {
    const server = await startTestServer({ VOICE_TTS: 'none', VOICE_LOG_LEVEL: 'warn', VOICE_HONEYPOT_ENGINE: engine });
    try {
      let i = 0;
      for (let r = 0; r < repeat; r++)
        for (const style of SCAMMER_STYLES)
          for (const scam of SCAMS) {
            const persona = PERSONAS[i++ % PERSONAS.length]!;
            out.push(await call(server, persona, scam, voices.get(persona.id)!, engine, style));
          }
    } finally {
      await server.close();
    }
  }
  return out;
}

/** Minutes on the line per scammer style and engine, with the scripted engine's multiple of the baseline. */
function engineTable(results: CallResult[]): string {
  const minutes = (engine: Engine, style: ScammerStyle, scam?: string) =>
    mean(
      results
        .filter((r) => r.engine === engine && r.style === style && (scam === undefined || r.scam === scam))
        .map((r) => r.simulatedMinutes),
    );
  const turns = (engine: Engine, style: ScammerStyle) =>
    mean(results.filter((r) => r.engine === engine && r.style === style).map((r) => r.turns));
  const rows = SCAMMER_STYLES.map((style) => {
    const s = minutes('scripted', style);
    const l = minutes('lenny', style);
    const worst = Math.min(...SCAMS.map((x) => minutes('scripted', style, x.type) / minutes('lenny', style, x.type)));
    return `| ${style} | ${s.toFixed(1)} (${turns('scripted', style).toFixed(1)} turns) | ${l.toFixed(1)} (${turns('lenny', style).toFixed(1)} turns) | ${(s / l).toFixed(1)}× | ${worst.toFixed(1)}× |`;
  });
  return [
    '| scammer style | scripted: minutes (turns) | Lenny-style loop: minutes (turns) | scripted ÷ loop | lowest ratio over scam types |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** `measureVoices: false` estimates persona speech from the configured rate instead of synthesising (fast, for tests). */
export async function runHoneypotSim(
  repeat = 2,
  opts: { measureVoices?: boolean } = {},
): Promise<{ results: CallResult[]; matrix: CallResult[]; markdown: string }> {
  const prev = process.env.VOICE_HONEYPOT_SILENCE_MS;
  const voices =
    opts.measureVoices === false
      ? new Map(PERSONAS.map((p) => [p.id, 60 / (p.tts.rate ?? 150)]))
      : await measureVoices();
  const server = await startTestServer({ VOICE_TTS: 'none', VOICE_LOG_LEVEL: 'warn' });
  const results: CallResult[] = [];
  try {
    for (let r = 0; r < repeat; r++) {
      for (const persona of PERSONAS) {
        for (const scam of SCAMS) results.push(await call(server, persona, scam, voices.get(persona.id)!));
      }
    }
  } finally {
    await server.close();
    if (prev !== undefined) process.env.VOICE_HONEYPOT_SILENCE_MS = prev;
  }
  const matrix = await engineMatrix(voices, repeat);
  const fieldCounts = new Map<string, number>();
  for (const r of results) for (const f of r.intelFields) fieldCounts.set(f, (fieldCounts.get(f) ?? 0) + 1);
  const whys = new Map<string, number>();
  for (const r of results) whys.set(r.why, (whys.get(r.why) ?? 0) + 1);
  const all = results;
  const ctl = controls();
  const ctlText = [...new Set(ctl.map((c) => c.engine))]
    .map((e) => `${e} ${mean(ctl.filter((c) => c.engine === e).map((c) => c.turns)).toFixed(1)} turns`)
    .join(', ');
  const markdown = [
    `Scripted scammers (${SCAMS.length} scam types: ${SCAMS.map((s) => s.type).join(', ')}) against every persona, ${repeat}× each (${all.length} calls) over a real socket, text-only node. Dialogue engine: embedded scripted (the generative engine needs a chat model server, none reachable here: not measured).`,
    '',
    `Persona speech time from its real eSpeak voice: ${PERSONAS.map((p) => `${p.id} ${(60 / voices.get(p.id)!).toFixed(0)}`).join(', ')} words a minute (pauses included).`,
    '',
    `Overall: **${mean(all.map((r) => r.turns)).toFixed(1)} turns** on average (target ≥ 10), ${mean(all.map((r) => r.simulatedMinutes)).toFixed(1)} simulated minutes on the line, ${mean(all.map((r) => r.intelFields.length)).toFixed(1)} intel fields extracted, ${Math.round((100 * all.filter((r) => r.filed).length) / all.length)}% of calls filed (mean ${mean(all.map((r) => r.reportedNumbers)).toFixed(1)} numbers).`,
    '',
    table(all, 'persona'),
    '',
    table(all, 'scam'),
    '',
    `Intel fields extracted (share of calls): ${[...fieldCounts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([f, n]) => `${f} ${Math.round((100 * n) / all.length)}%`)
      .join(', ')}.`,
    '',
    'The scammer model (bench/honeypot-sim/scammer.ts): it answers questions it recognises (name and spelling, company, callback number, badge or case number, website, program, payment rail, amount, email, office), then goes on with its pitch; when the pitch is over it applies pressure and loses one patience point per pressure turn; hearing a persona line it already heard costs two, being asked a third time for something it already said costs one, and three lines in a row with neither a question nor a sign of compliance make it hang up at once. A line that sounds like compliance ("it says…", "I have found my purse", "what do I do first?") buys one point back, up to its starting patience (5 or 6).',
    '',
    `Controls against the same scammers (in process, no socket): ${ctlText}.`,
    '',
    '### Against the known baseline, by scammer style',
    '',
    `Every scam type × scammer style, ${repeat}× per engine (${matrix.length} calls), personas taken in turn. The baseline is a Lenny-style loop (\`VOICE_HONEYPOT_ENGINE=lenny\`: sixteen fixed lines of a hard-of-hearing old man, one per caller pause, whatever was said). Styles: \`patient\` as above; \`repeater\` says its last line again every fourth turn and hangs up on a word-for-word identical answer; \`repeat_intolerant\` hangs up on any line it heard before; \`hurried\` has half the patience and leaves after two non-answers.`,
    '',
    engineTable(matrix),
    '',
    `Why they hung up, scripted: ${whyList(matrix.filter((r) => r.engine === 'scripted'))}; loop: ${whyList(matrix.filter((r) => r.engine === 'lenny'))}.`,
    '',
    `Why the scammer hung up: ${[...whys.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([w, n]) => `${w} (${n})`)
      .join(', ')}.`,
  ].join('\n');
  return { results, matrix, markdown };
}

function whyList(rs: CallResult[]): string {
  const whys = new Map<string, number>();
  for (const r of rs) whys.set(r.why, (whys.get(r.why) ?? 0) + 1);
  return [...whys.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([w, n]) => `${w} (${n})`)
    .join(', ');
}

function writeResults(markdown: string): void {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../RESULTS.md');
  const begin = '<!-- honeypot-sim:begin -->';
  const end = '<!-- honeypot-sim:end -->';
  const section = `${begin}\n## Honeypot simulation\n\n${markdown}\n\nReproduce: \`npx tsx bench/honeypot-sim/run.ts --write\` (${new Date().toISOString().slice(0, 10)}).\n${end}`;
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmark results\n';
  const next = current.includes(begin)
    ? current.replace(new RegExp(`${begin}[\\s\\S]*?${end}`), section)
    : `${current.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--repeat');
  const repeat = at >= 0 ? Math.max(1, Number(args[at + 1]) || 2) : 2;
  const { results, matrix, markdown } = await runHoneypotSim(repeat);
  fs.writeFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'results.json'),
    JSON.stringify({ personas: results, engines: matrix }, null, 2),
  );
  console.log(markdown);
  if (args.includes('--write')) writeResults(markdown);
  process.exit(0);
}
