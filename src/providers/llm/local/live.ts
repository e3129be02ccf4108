/*
 * The embedded model's view of a running call, kept as the caller's lines come in, so that a live score
 * reads only the lines said since the last one: a score at minute 9 of a call costs what one at minute 1
 * does, where assessing the whole caller text each time cost eight times more (and its 30 s cadence made
 * the longest calls the node's most expensive).
 *
 * The view is the one `LocalModel.assess` takes of the caller's lines joined by newlines, built a line at
 * a time. That holds because nothing it reads crosses a newline unseen: words, sentences and speaker
 * labels are found line by line (none contains a newline); the bigram of two lines' edge words is added
 * when the second line arrives; cue and subject patterns are searched again from CUE_REACH characters
 * before the new line, the furthest a match attempt reads; an instruction to the screen is looked for
 * again from the start of the last unfinished sentence. (One difference: a line that is nothing but a
 * speaker label keeps its newline here, where the whole-text pass joins it to the next line.)
 */
import type { Assessment } from '../../../domain/verdict.js';
import { guardWith, InjectionWatch } from '../injection.js';
import { CUE_REACH, CueScan, type CueHit } from './evidence.js';
import { bigramHash32, hash32, tokens, unlabelled, vectorOf, type SparseVector } from './features.js';
import { sentenceSpans, type CallView, type LocalModel, type Span } from './model.js';
import { SubjectWatch } from './weak-labels.js';

const SILENT: Assessment = { score: 0, category: 'none', tactics: [], signals: [] };

export class LiveCall {
  private lines = 0;
  private spoke = false;
  /** The caller's lines joined as said (instructions to the screen are looked for in it). */
  private said = '';
  /** The same, unlabelled and lower-cased line by line: what the features and cues read. */
  private lower = '';
  /** False once a line changed length when lower-cased: sentences are then cut from the lower-cased text. */
  private aligned = true;
  private readonly sentences: Span[] = [];
  /** The n-gram buckets seen, one bit each; kept in index order, as the vector needs them. */
  private readonly buckets: Uint32Array;
  private lastWord: number | undefined;
  private readonly mask: number;
  private readonly cues = new CueScan();
  private readonly subjects = new SubjectWatch(CUE_REACH);
  private readonly injection = new InjectionWatch();

  constructor(private readonly model: LocalModel) {
    this.mask = (1 << model.space.hashBits) - 1;
    this.buckets = new Uint32Array((this.mask >>> 5) + 1);
  }

  /** Adds the caller's next lines, in the order said. */
  append(lines: readonly string[]): void {
    if (lines.length === 0) return;
    for (const line of lines) this.add(line);
    this.cues.update(this.lower);
    this.subjects.update(this.lower);
  }

  /** What `assess` of the caller's lines joined by newlines gives, injection guard included. */
  assess(): Assessment {
    if (!this.spoke) return SILENT;
    const hits = this.cues.hits();
    const view: CallView = {
      vector: this.vector(hits),
      hits,
      sentences: this.aligned ? this.sentences : sentenceSpans(this.lower),
      subject: () => this.subjects.subject,
    };
    return guardWith(this.injection.update(this.said), this.model.judge(view));
  }

  private add(line: string): void {
    const sep = this.lines++ > 0 ? '\n' : '';
    this.said += sep + line;
    this.spoke ||= line.trim() !== '';
    const cased = unlabelled(line);
    const lower = cased.toLowerCase();
    const start = this.lower.length + sep.length;
    this.lower += sep + lower;
    if (cased.length !== lower.length) this.aligned = false;
    if (this.aligned) for (const s of sentenceSpans(cased, start)) this.sentences.push(s);
    for (const word of tokens(lower)) {
      const h = hash32(word);
      this.mark(h);
      if (this.lastWord !== undefined) this.mark(bigramHash32(this.lastWord, word));
      this.lastWord = h;
    }
  }

  private mark(hash: number): void {
    const b = hash & this.mask;
    this.buckets[b >>> 5] = this.buckets[b >>> 5]! | (1 << (b & 31));
  }

  /** `featurise`'s vector, from the n-gram buckets seen (read off the bitset in order) and the cue hits. */
  private vector(hits: readonly CueHit[]): SparseVector {
    const index: number[] = [];
    const buckets = this.buckets;
    for (let w = 0; w < buckets.length; w++) {
      for (let bits = buckets[w]!; bits !== 0; bits &= bits - 1) index.push((w << 5) | (31 - Math.clz32(bits & -bits)));
    }
    return vectorOf(index, hits, this.model.space);
  }
}
