/*
 * What `voice scan` reads: recordings (WAV, MP3, M4A, OGG, FLAC, WebM; raw PCM or mu-law with
 * --encoding and --sample-rate) and transcripts (plain text with optional `speaker: text` lines, or
 * JSON). Folders are walked recursively; other files are skipped.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export const AUDIO_EXTENSIONS = ['.wav', '.mp3', '.m4a', '.ogg', '.oga', '.opus', '.flac', '.webm'];
export const RAW_EXTENSIONS = ['.raw', '.pcm', '.ulaw', '.mulaw', '.ul'];
export const TEXT_EXTENSIONS = ['.txt', '.json'];

export interface InputFile {
  /** As given or found under a given folder (the resume key, with size and mtime). */
  path: string;
  size: number;
  mtimeMs: number;
  type: 'audio' | 'raw' | 'text';
}

function typeOf(file: string): InputFile['type'] | null {
  const ext = path.extname(file).toLowerCase();
  if (AUDIO_EXTENSIONS.includes(ext)) return 'audio';
  if (RAW_EXTENSIONS.includes(ext)) return 'raw';
  if (TEXT_EXTENSIONS.includes(ext)) return 'text';
  return null;
}

/** Every scannable file under the given paths, sorted, each once. Throws naming a path that does not exist. */
export async function collectInputs(paths: readonly string[]): Promise<InputFile[]> {
  const found = new Map<string, InputFile>();
  const visit = async (p: string, explicit: boolean): Promise<void> => {
    let st;
    try {
      st = await stat(p);
    } catch {
      if (explicit) throw new Error(`${p}: no such file or folder`);
      return;
    }
    if (st.isDirectory()) {
      const names = (await readdir(p)).filter((n) => !n.startsWith('.')).sort();
      for (const n of names) await visit(path.join(p, n), false);
      return;
    }
    if (!st.isFile()) return;
    const type = typeOf(p);
    if (!type) {
      if (explicit)
        throw new Error(
          `${p}: not a recording or transcript (${[...AUDIO_EXTENSIONS, ...RAW_EXTENSIONS, ...TEXT_EXTENSIONS].join(' ')})`,
        );
      return;
    }
    found.set(p, { path: p, size: st.size, mtimeMs: Math.round(st.mtimeMs), type });
  };
  for (const p of paths) await visit(p, true);
  return [...found.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * A transcript file as `speaker: text` lines. JSON may be a string, `{ "transcript": "…" }`, an array of
 * lines, or `{ "lines" | "utterances" | "turns": [...] }` whose items are strings or `{ speaker, text }`.
 */
export async function readTranscript(file: string): Promise<string> {
  const raw = await readFile(file, 'utf8');
  if (path.extname(file).toLowerCase() !== '.json') return raw;
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch (e) {
    throw new Error(`not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const text = transcriptOf(doc);
  if (text === null)
    throw new Error('JSON holds no transcript (expected "transcript", "lines", "utterances" or "turns")');
  return text;
}

function transcriptOf(doc: unknown): string | null {
  if (typeof doc === 'string') return doc;
  if (Array.isArray(doc))
    return doc
      .map(lineOf)
      .filter((l): l is string => l !== null)
      .join('\n');
  if (doc && typeof doc === 'object') {
    const o = doc as Record<string, unknown>;
    if (typeof o.transcript === 'string') return o.transcript;
    for (const k of ['lines', 'utterances', 'turns']) if (Array.isArray(o[k])) return transcriptOf(o[k]);
  }
  return null;
}

function lineOf(item: unknown): string | null {
  if (typeof item === 'string') return item;
  if (item && typeof item === 'object') {
    const o = item as Record<string, unknown>;
    const text = typeof o.text === 'string' ? o.text : null;
    if (text === null) return null;
    const speaker = typeof o.speaker === 'string' ? o.speaker : typeof o.role === 'string' ? o.role : null;
    return speaker ? `${speaker}: ${text}` : text;
  }
  return null;
}
