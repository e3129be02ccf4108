/** Digits as a persona reads them aloud ("4532 0151" → "four five three two, oh one five one"). */
const WORDS = ['oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

export function speakDigits(value: string): string {
  return value
    .trim()
    .split(/[\s-]+/)
    .map((group) => [...group].map((ch) => (/\d/.test(ch) ? WORDS[Number(ch)] : ch)).join(' '))
    .join(', ');
}

/** "Smith" → "S, M, I, T, H": the persona spelling a name back. */
export function spellOut(word: string): string {
  return [...word.replace(/[^A-Za-z]/g, '').toUpperCase()].join(', ');
}
