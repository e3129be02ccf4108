/*
 * What the node makes of the scammers' answers over a phone line, without running whole calls: each
 * scam's answers (name, callback number, case number, e-mail …) spoken by the simulation's voices,
 * through the telephone channel, recognised the way the node recognises (embedded recogniser, call
 * model, band fill, recogniser-text normalisation), and read by the intel extractor. A quick check of
 * which answers survive the line, and the recognised text to improve reading against.
 *
 *   npx tsx bench/honeypot-sim/hear-answers.ts [--voices all|sim] [--save FILE] [--from FILE]
 *
 * `--save` writes the recognised text (JSON) so extraction changes can be rechecked with `--from`
 * without decoding again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { from, lastValueFrom, toArray } from 'rxjs';
import { transcribeAudio } from '../../pipelines/live/transcription.js';
import type { AudioFrame } from '../../src/domain/frames.js';
import { createLogger } from '../../src/log.js';
import { createSphinx, detectSphinx } from '../../src/providers/stt/sphinx.js';
import { extractIntel } from '../../src/rules/intel/extract.js';
import { loadTuning } from '../../src/tuning.js';
import { Scammer } from './scammer.js';
import { SCAMS } from './scams.js';
import { renderLine, SCAMMER_VOICES, type ScammerVoice } from './speech.js';

const FIELDS = ['name', 'org', 'callback', 'case', 'url', 'tool', 'payment', 'amount', 'email', 'address'] as const;

export interface HeardAnswer {
  scam: string;
  voice: ScammerVoice;
  field: (typeof FIELDS)[number];
  said: string;
  /** The node's transcript of it (recogniser output normalised), one utterance a line. */
  raw: string;
}

/** 2 s of line silence after the answer, as the simulation sends, so the VAD closes the utterance. */
const TRAILING = Buffer.alloc(16_000, 0xff);

async function hearAll(voices: 'all' | 'sim'): Promise<HeardAnswer[]> {
  const install = detectSphinx();
  if (!install) throw new Error('pocketsphinx is not installed');
  const stt = createSphinx(install, createLogger('warn'), { decoders: 1 });
  const segmenter = loadTuning().segmenter;
  const out: HeardAnswer[] = [];
  try {
    for (const [i, scam] of SCAMS.entries()) {
      const scammer = new Scammer(scam);
      const vs = voices === 'all' ? SCAMMER_VOICES : [SCAMMER_VOICES[i % SCAMMER_VOICES.length]!];
      for (const voice of vs) {
        for (const field of FIELDS) {
          const said = scammer.answer(field);
          const mulaw = Buffer.concat([await renderLine(said, voice), TRAILING]);
          const frames: AudioFrame[] = [];
          for (let at = 0; at < mulaw.length; at += 160)
            frames.push({ kind: 'audio', track: 'inbound', data: mulaw.subarray(at, at + 160) });
          const results = await lastValueFrom(
            transcribeAudio(from(frames), { encoding: 'mulaw', sampleRate: 8000 }, stt, { segmenter }).pipe(toArray()),
          );
          // One line per utterance, as the node's transcript has them.
          const raw = results
            .filter((r) => r.final)
            .map((r) => r.text)
            .join('\n');
          out.push({ scam: scam.type, voice, field, said, raw });
          process.stderr.write('.');
        }
      }
    }
  } finally {
    await stt.close?.();
  }
  process.stderr.write('\n');
  return out;
}

function arg(args: string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const from = arg(args, '--from');
  const heard: HeardAnswer[] = from
    ? (JSON.parse(fs.readFileSync(from, 'utf8')) as HeardAnswer[])
    : await hearAll(arg(args, '--voices') === 'all' ? 'all' : 'sim');
  const save = arg(args, '--save');
  if (save) fs.writeFileSync(save, JSON.stringify(heard, null, 2));
  const got = new Map<string, number>();
  for (const h of heard) {
    const text = h.raw;
    const intel = extractIntel(text);
    const fields = Object.keys(intel);
    for (const f of fields) got.set(f, (got.get(f) ?? 0) + 1);
    console.log(
      `[${h.scam} ${h.voice} ${h.field}] ${h.said}\n  heard: ${text.replace(/\n/g, ' | ')}\n  intel: ${JSON.stringify(intel)}`,
    );
  }
  console.log(`\n${heard.length} answers; fields read: ${JSON.stringify(Object.fromEntries(got))}`);
}
