/**
 * Many regular expressions over one text in a single pass of their union.
 *
 * Scanning a call once per pattern (the rules' lexicons, the model's cues: dozens each) spent most of the
 * time confirming that a pattern is absent. The union finds every position where any pattern matches;
 * only there is each pattern tried, anchored (sticky). Stepping one character past each union match, not
 * past its end, keeps a pattern that starts inside another's match from being hidden.
 *
 * The results are those of scanning with each pattern on its own: a pattern's matches are found left to
 * right, each search starting where its previous match ended, as `exec` with the `g` flag finds them.
 */
import { nextIndex } from './matches.js';

/** A scan's state at a position: where it goes on from, and where each pattern's next search starts. */
export interface ScanResume {
  at: number;
  from: readonly number[];
}

export class PatternSet {
  private readonly any: RegExp;
  private readonly anchored: RegExp[];
  private readonly unicode: boolean;

  /** All patterns must share their flags (other than `g` and `y`) and use no backreferences. */
  constructor(patterns: readonly RegExp[]) {
    const flags = (re: RegExp): string => re.flags.replace(/[gy]/g, '');
    const shared = patterns.length > 0 ? flags(patterns[0]!) : '';
    for (const re of patterns) {
      if (flags(re) !== shared) throw new TypeError(`PatternSet: ${re} has flags other than "${shared}"`);
      // A union renumbers groups: a backreference would point at another pattern's group.
      if (/\\[1-9]|\\k</.test(re.source)) throw new TypeError(`PatternSet: ${re} uses a backreference`);
    }
    this.any = new RegExp(
      union(
        patterns.map((re) => re.source),
        shared,
      ),
      `${shared}g`,
    );
    this.anchored = patterns.map((re) => new RegExp(re.source, `${shared}y`));
    this.unicode = this.any.unicode || shared.includes('v');
  }

  /**
   * Calls `found(pattern, start, end)` for every match of every pattern: in the order of their start,
   * and at one start in pattern order. `firstOnly` stops looking for a pattern after its first match.
   * `resume` goes on from a position of an earlier scan (`resumeAt`) instead of from the start.
   */
  scan(
    text: string,
    found: (pattern: number, start: number, end: number) => void,
    firstOnly = false,
    resume?: ScanResume,
  ): void {
    const { any, anchored } = this;
    // Where each pattern's next search starts, as `lastIndex` would on its own.
    const from = resume ? resume.from.slice() : new Array<number>(anchored.length).fill(0);
    any.lastIndex = resume?.at ?? 0;
    try {
      for (let m = any.exec(text); m !== null; m = any.exec(text)) {
        const at = m.index;
        for (let i = 0; i < anchored.length; i++) {
          if (at < from[i]!) continue;
          const re = anchored[i]!;
          re.lastIndex = at;
          if (!re.test(text)) continue;
          const end = re.lastIndex;
          found(i, at, end);
          from[i] = firstOnly ? Infinity : end > at ? end : nextIndex(text, at, this.unicode);
        }
        any.lastIndex = nextIndex(text, at, this.unicode);
      }
    } finally {
      any.lastIndex = 0;
    }
  }

  /**
   * The state of a scan of `text` at `at`, given the matches it found before `at` (`[pattern, start, end]`,
   * in the order found), for `scan` to go on from. Exact when no match attempt starting before `at` reads a
   * character that the text the matches were found in did not have (src/providers/llm/local/live.ts).
   */
  resumeAt(text: string, at: number, before: ReadonlyArray<readonly [number, number, number]>): ScanResume {
    const from = new Array<number>(this.anchored.length).fill(0);
    for (const [i, start, end] of before) from[i] = end > start ? end : nextIndex(text, start, this.unicode);
    return { at, from };
  }

  /** For each pattern, whether it matches anywhere in `text`. */
  present(text: string): boolean[] {
    const said = new Array<boolean>(this.anchored.length).fill(false);
    this.scan(text, (i) => (said[i] = true), true);
    return said;
  }
}

/**
 * The patterns' union. When every pattern begins with a word boundary, the boundary is checked once per
 * position, before the alternatives, instead of by each in turn: irregexp then rejects most positions at
 * once, and the union scans about twice as fast (the model's cues and the intel lexicons all begin so).
 */
function union(sources: readonly string[], flags: string): string {
  if (sources.length === 0) return '(?!)';
  const rests = flags.includes('v') ? null : sources.map(afterLeadingBoundary);
  if (rests?.every((r) => r !== null)) return `\\b(?:${rests.map((r) => `(?:${r})`).join('|')})`;
  return sources.map((s) => `(?:${s})`).join('|');
}

/**
 * The source after a leading `\b`, or null when there is none or it does not apply to the whole pattern:
 * in `\ba|b` it binds only the first alternative, so a `|` outside every group and class means null.
 * (Not for the `v` flag, whose classes nest.)
 */
export function afterLeadingBoundary(source: string): string | null {
  if (!source.startsWith('\\b')) return null;
  let depth = 0;
  let inClass = false;
  for (let i = 2; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return null;
  }
  return source.slice(2);
}
