/**
 * A linear pre-check of a JSON body's shape, so that JSON.parse never runs on a body that would hold the
 * event loop (and with it every live call) for seconds: V8 parses 12 MB of `[[[[…` in 6–18 s before it
 * fails. Strings are skipped with `indexOf` (native speed: a 25 MB base64 audio field costs well under a
 * millisecond); everything outside strings is walked byte by byte, and bounded.
 */

/** Deeper than any body this API takes (its objects are one or two levels deep). */
export const MAX_JSON_DEPTH = 32;
/**
 * Bytes outside strings (punctuation, numbers, whitespace; each string counts one). Request bodies are
 * objects of a few fields whose bulk is in strings (a transcript, base64 audio); this walk is the only
 * per-byte JavaScript loop, and the bound keeps it to about a millisecond.
 */
export const MAX_JSON_STRUCTURE = 256 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Why the body must not be parsed (a message for a 400 naming `body`), or null when JSON.parse may run.
 * Malformed JSON is left to JSON.parse, whose cost on it is bounded by the same walk.
 */
export function jsonShapeProblem(
  buf: Uint8Array,
  maxDepth = MAX_JSON_DEPTH,
  maxStructure = MAX_JSON_STRUCTURE,
): string | null {
  const n = buf.length;
  let depth = 0;
  let structure = 0;
  let i = 0;
  while (i < n) {
    const c = buf[i]!;
    if (++structure > maxStructure) return tooMuch(maxStructure);
    if (c === QUOTE) {
      // To the closing quote: an escaped one (odd run of backslashes before it) counts as structure,
      // so a string of `\"\"\"…` cannot turn this into a per-byte loop either.
      let j = i + 1;
      for (;;) {
        j = buf.indexOf(QUOTE, j);
        if (j < 0) return null;
        let backslashes = 0;
        for (let k = j - 1; k > i && buf[k] === BACKSLASH; k--) backslashes++;
        if (backslashes % 2 === 0) break;
        if (++structure > maxStructure) return tooMuch(maxStructure);
        j++;
      }
      i = j + 1;
      continue;
    }
    if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return `JSON nested deeper than ${maxDepth} levels`;
    } else if (c === 0x5d || c === 0x7d) depth--;
    i++;
  }
  return null;
}

function tooMuch(maxStructure: number): string {
  return `JSON with more than ${maxStructure} bytes outside its strings`;
}
