/*
 * The unigram distribution of Debian's general US English model (pocketsphinx-en-us `en-us.lm.bin`,
 * sphinxbase's trie format). Its own converter aborts when writing this file back as ARPA, so the
 * two parts needed are read here: the unigram records and the word strings at the end of the file.
 *
 * Layout: "Trie Language Model", order (u8), counts (u32 × order), quantiser (i32 type, then 2^16
 * float bins per table: two per middle order, one for the longest), unigrams ((count + 1) × {f32 prob,
 * f32 backoff, u32 next}, probabilities in log base 1.0001), the n-gram tries, then the word strings
 * (i32 byte length, NUL-separated).
 */
import fs from 'node:fs';

const HEADER = 'Trie Language Model';
const LOG_BASE = Math.log(1.0001);

export function readGeneralUnigrams(file: string): Map<string, number> {
  const buf = fs.readFileSync(file);
  if (buf.toString('latin1', 0, HEADER.length) !== HEADER) throw new Error(`${file}: not a trie language model`);
  const order = buf.readUInt8(HEADER.length);
  const counts = Array.from({ length: order }, (_, i) => buf.readUInt32LE(HEADER.length + 1 + 4 * i));
  const unigrams = counts[0]!;
  const quantTables = order > 1 ? 2 * (order - 2) + 1 : 0;
  const start = HEADER.length + 1 + 4 * order + (order > 1 ? 4 + quantTables * 65536 * 4 : 0);

  // The word strings close the file: find the length field that matches the rest of the file.
  let words: string[] | undefined;
  for (let at = buf.length - 8; at > start && buf.length - at < 4_000_000; at--) {
    if (buf.readInt32LE(at) !== buf.length - at - 4) continue;
    const list = buf.toString('utf8', at + 4, buf.length - 1).split('\0');
    if (list.length === unigrams) words = list;
    break;
  }
  if (!words) throw new Error(`${file}: word strings not found`);

  const out = new Map<string, number>();
  for (let i = 0; i < unigrams; i++) {
    const prob = buf.readFloatLE(start + 12 * i);
    out.set(words[i]!, Math.exp(prob * LOG_BASE));
  }
  return out;
}
