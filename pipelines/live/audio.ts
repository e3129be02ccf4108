import { EMPTY, filter, ignoreElements, map, take, tap, catchError, type Observable } from 'rxjs';
import type { AudioEncoding, AudioFrame, Role, Track, Utterance } from '../../src/domain/frames.js';
import type { PipelineContext } from '../types.js';

/** Reports a provider refusal as `session.error` (`error`: the provider's message, `text`: what failed). */
export type ReportError = (error: string, text: string) => void;

export const TEXT_ONLY_MESSAGE = 'audio cannot be transcribed: this deployment has no speech-to-text (text-only)';

/**
 * The audio branch of one track: audio frames → decode → resample → (segment) → transcribe →
 * final results → utterances. The speech stage owns the decode, resample and segment operators;
 * this seam keeps the live graph independent of them.
 *
 * Without a speech provider the first audio frame yields one `session.error` and the rest of the
 * audio is dropped; the session continues on text.
 */
export function audioUtterances(
  ctx: PipelineContext,
  track: Track,
  audio$: Observable<AudioFrame>,
  report: ReportError,
): Observable<Utterance> {
  const stt = ctx.services.stt;
  if (!stt) {
    return audio$.pipe(
      take(1),
      tap(() => report(TEXT_ONLY_MESSAGE, 'audio frames received')),
      ignoreElements(),
    );
  }
  const { encoding, sampleRate } = ctx.spec.start.audio;
  const role: Role = track === 'outbound' ? 'callee' : 'caller';
  const pcm$ = audio$.pipe(map((f) => resampleLinear(decodeToPcm(f.data, encoding), sampleRate, stt.sampleRate)));
  const opts = ctx.spec.options.language
    ? { sampleRate: stt.sampleRate, language: ctx.spec.options.language }
    : { sampleRate: stt.sampleRate };
  return stt.transcribe(pcm$, opts).pipe(
    filter((r) => r.final && r.text.trim() !== ''),
    map((r): Utterance => ({ role, speaker: role, text: r.text.trim(), at: ctx.scheduler.now() })),
    catchError((e: unknown) => {
      report(e instanceof Error ? e.message : String(e), `speech-to-text failed on the ${track} track`);
      return EMPTY;
    }),
  );
}

/* Minimal codecs so the branch works end to end; the speech stage's decode/resample operators supersede them. */

function decodeToPcm(data: Uint8Array, encoding: AudioEncoding): Int16Array {
  if (encoding === 'pcm16') {
    const n = data.byteLength >> 1;
    // Little-endian host: view when aligned, copy otherwise.
    if (data.byteOffset % 2 === 0) return new Int16Array(data.buffer, data.byteOffset, n);
    return new Int16Array(data.slice(0, n * 2).buffer);
  }
  const table = encoding === 'mulaw' ? MULAW : ALAW;
  const out = new Int16Array(data.byteLength);
  for (let i = 0; i < data.byteLength; i++) out[i] = table[data[i]!]!;
  return out;
}

function resampleLinear(pcm: Int16Array, from: number, to: number): Int16Array {
  if (from === to || pcm.length === 0) return pcm;
  const n = Math.max(1, Math.round((pcm.length * to) / from));
  const out = new Int16Array(n);
  const step = from / to;
  for (let i = 0; i < n; i++) {
    const x = i * step;
    const i0 = Math.min(pcm.length - 1, Math.floor(x));
    const i1 = Math.min(pcm.length - 1, i0 + 1);
    const t = x - i0;
    out[i] = Math.round(pcm[i0]! * (1 - t) + pcm[i1]! * t);
  }
  return out;
}

const MULAW = new Int16Array(256);
const ALAW = new Int16Array(256);
for (let i = 0; i < 256; i++) {
  const u = ~i & 0xff;
  const t = (((u & 0x0f) << 3) + 0x84) << ((u & 0x70) >> 4);
  MULAW[i] = u & 0x80 ? 0x84 - t : t - 0x84;
  const a = i ^ 0x55;
  const seg = (a & 0x70) >> 4;
  let v = (a & 0x0f) << 4;
  v = seg === 0 ? v + 8 : seg === 1 ? v + 0x108 : (v + 0x108) << (seg - 1);
  ALAW[i] = a & 0x80 ? v : -v;
}
