/*
 * POST /scan request parsing: a JSON body or a multipart form (file field `audio` plus the same fields
 * as form values), validated field by field. Every rejection is a 400 that names the field; fields the
 * spec does not know are ignored.
 */
import busboy from 'busboy';
import { SCAN_BODY_LIMIT } from '../../domain/limits.js';
import { isE164 } from '../../domain/phone.js';
import { readJson } from '../http/json.js';
import { HttpError, type HttpRequest } from '../types.js';

export type ScanEncoding = 'wav' | 'pcm16' | 'mulaw';

export interface ScanRequest {
  transcript?: string;
  audio?: { bytes: Buffer; field: 'audio_base64' | 'audio' };
  encoding: ScanEncoding;
  sampleRate?: number;
  language?: string;
  from?: string;
  to?: string;
  report: boolean;
}

/** Scoring runs on the event loop: a bound on the text keeps one request from stalling live calls. */
export const MAX_TRANSCRIPT_CHARS = 500_000;
const ENCODINGS: readonly ScanEncoding[] = ['wav', 'pcm16', 'mulaw'];
const BCP47 = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function bad(field: string, why: string): HttpError {
  return new HttpError(400, `${field}: ${why}`);
}

/** Values as they arrive: JSON keeps types, a form gives strings (which are then read as the spec's types). */
type Raw = Record<string, unknown>;

function optString(raw: Raw, field: string): string | undefined {
  const v = raw[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw bad(field, 'must be a string');
  return v;
}

function readBoolean(raw: Raw, field: string, fromForm: boolean): boolean {
  const v = raw[field];
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (fromForm && typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  throw bad(field, 'must be true or false');
}

function readSampleRate(raw: Raw, fromForm: boolean): number | undefined {
  const v = raw.sample_rate;
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : fromForm && typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw bad('sample_rate', 'must be a whole number of Hz');
  if (n < 8000 || n > 48000) throw bad('sample_rate', 'must be between 8000 and 48000');
  return n;
}

/** `audio_base64` decoded, or `invalid`: its 400 is raised in validation order, not where it is decoded. */
export type DecodedBase64 = Buffer | 'invalid';

export function decodeAudioBase64(value: string): DecodedBase64 {
  const compact = value.replace(/\s+/g, '');
  if (compact.length === 0 || compact.length % 4 === 1 || !BASE64.test(compact)) return 'invalid';
  return Buffer.from(compact, 'base64');
}

/**
 * A scan body read (JSON or form) and its audio decoded, not yet validated: the part of a request whose
 * cost grows with the body, which is why it may run on another thread (`scan-body.ts`). A string
 * `audio_base64` is taken out of `fields` into `base64`; any other value stays for validation to refuse.
 */
export interface ScanBody {
  fields: Raw;
  fromForm: boolean;
  file?: Buffer;
  base64?: DecodedBase64;
}

export async function readScanBody(req: Pick<HttpRequest, 'headers' | 'body'>): Promise<ScanBody> {
  const fromForm = (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
  const { fields, audio } = fromForm ? await readMultipart(req) : { fields: readJson(req), audio: undefined };
  const body: ScanBody = { fields, fromForm };
  if (audio) body.file = audio;
  if (typeof fields.audio_base64 === 'string') {
    body.base64 = decodeAudioBase64(fields.audio_base64);
    delete fields.audio_base64;
  }
  return body;
}

/** Validates every field the spec defines; the audio comes from the multipart file part or `audio_base64`. */
export function validateScan({ fields: raw, file: fileAudio, fromForm, base64 }: ScanBody): ScanRequest {
  const transcript = optString(raw, 'transcript');
  const audioB64 = optString(raw, 'audio_base64');
  const encodingRaw = optString(raw, 'encoding');
  const language = optString(raw, 'language');
  const from = optString(raw, 'from');
  const to = optString(raw, 'to');
  const report = readBoolean(raw, 'report', fromForm);
  const sampleRate = readSampleRate(raw, fromForm);

  const encoding = (encodingRaw?.trim().toLowerCase() || 'wav') as ScanEncoding;
  if (!ENCODINGS.includes(encoding)) throw bad('encoding', 'must be wav, pcm16 or mulaw');
  if (language !== undefined && !BCP47.test(language.trim()))
    throw bad('language', 'must be a BCP-47 code such as en-US');
  if (from !== undefined && from !== '' && !isE164(from.trim()))
    throw bad('from', 'must be an E.164 number with a leading +');
  if (to !== undefined && to !== '' && !isE164(to.trim())) throw bad('to', 'must be an E.164 number with a leading +');
  if (report && !from?.trim()) throw bad('from', 'is required when report is true');

  let audio: ScanRequest['audio'];
  const decoded = base64 ?? (audioB64 !== undefined ? decodeAudioBase64(audioB64) : undefined);
  if (decoded !== undefined && fileAudio !== undefined)
    throw bad('audio_base64', 'send the audio once: either the audio file or audio_base64');
  if (decoded !== undefined) {
    if (decoded === 'invalid') throw bad('audio_base64', 'is not valid base64');
    const bytes = decoded;
    if (bytes.length === 0) throw bad('audio_base64', 'is empty');
    audio = { bytes, field: 'audio_base64' };
  } else if (fileAudio !== undefined) {
    if (fileAudio.length === 0) throw bad('audio', 'the file is empty');
    audio = { bytes: fileAudio, field: 'audio' };
  }

  const text = transcript?.trim() ? transcript : undefined;
  if (text && text.length > MAX_TRANSCRIPT_CHARS) {
    throw bad('transcript', `longer than ${MAX_TRANSCRIPT_CHARS} characters (about ten hours of speech)`);
  }
  if (!text && !audio)
    throw bad('transcript', 'a transcript or audio (audio_base64, or a multipart file named audio) is required');
  if (text && audio) throw bad('transcript', 'send a transcript or audio, not both');
  if (audio && encoding === 'pcm16' && sampleRate === undefined) throw bad('sample_rate', 'is required for pcm16');

  const req: ScanRequest = { encoding, report };
  if (text) req.transcript = text;
  if (audio) req.audio = audio;
  if (sampleRate !== undefined) req.sampleRate = sampleRate;
  else if (encoding === 'mulaw' && audio) req.sampleRate = 8000;
  if (language?.trim()) req.language = language.trim();
  if (from?.trim()) req.from = from.trim();
  if (to?.trim()) req.to = to.trim();
  return req;
}

/** Reads a multipart form: one file part `audio`, other parts as values. Duplicates are rejected by name. */
export function readMultipart(req: Pick<HttpRequest, 'headers' | 'body'>): Promise<{ fields: Raw; audio?: Buffer }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        limits: { fileSize: SCAN_BODY_LIMIT, files: 4, fields: 32, fieldSize: SCAN_BODY_LIMIT },
      });
    } catch (e) {
      reject(bad('body', `not a valid multipart form (${(e as Error).message})`));
      return;
    }
    const fields: Raw = {};
    let audio: Buffer | undefined;
    let failure: HttpError | undefined;
    const fail = (e: HttpError) => {
      failure ??= e;
    };
    bb.on('file', (name, stream) => {
      const parts: Buffer[] = [];
      // A form cut off inside a file part errors the part's stream; unhandled, that would end the process.
      stream.on('error', (e: Error) => fail(bad('body', `not a valid multipart form (${e.message})`)));
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('end', () => {
        if (name !== 'audio') return; // unknown file parts are ignored, like unknown fields
        if (audio !== undefined) fail(bad('audio', 'sent more than once'));
        else audio = Buffer.concat(parts);
      });
    });
    bb.on('field', (name, value) => {
      if (name === 'audio') return fail(bad('audio', 'must be a file part, not a form value'));
      if (Object.hasOwn(fields, name)) return fail(bad(name, 'sent more than once'));
      fields[name] = value;
    });
    bb.on('error', (e: Error) => reject(bad('body', `not a valid multipart form (${e.message})`)));
    bb.on('close', () => (failure ? reject(failure) : resolve(audio ? { fields, audio } : { fields })));
    bb.end(req.body);
  });
}
