/*
 * The replay recogniser (VOICE_STT=replay), for benchmarks and tests only: it does not listen. It counts
 * the audio it is handed and emits a scripted final utterance after every `everyMs` of it, so a load test
 * measures the service around the recogniser, never the recogniser itself. Lines cycle through a scripted
 * scam call (spoken numbers in words, as a real recogniser writes them).
 */
import { Observable, type Subscriber } from 'rxjs';
import { frameProbe } from '../../observability/frame-probe.js';
import { FrameSubscriber } from '../../util/frame-subscriber.js';
import type { SpeechToText, SttResult } from './types.js';

/** Audio between two scripted utterances. */
export const REPLAY_EVERY_MS = 2000;

export const REPLAY_LINES: readonly string[] = [
  'hello this is officer james miller from the social security administration',
  'your social security number has been suspended because of suspicious activity',
  'there is a warrant for your arrest unless you settle this today',
  'you need to pay the outstanding amount right now with google play gift cards',
  'do not hang up and do not tell anyone at your bank about this call',
  'read me the numbers on the back of the cards',
  'your case number is four four seven one and my badge number is two two nine',
  'call me back at two zero two five five five zero one four seven',
];

export interface ReplayOptions {
  everyMs?: number;
  lines?: readonly string[];
}

export function createReplay(opts: ReplayOptions = {}): SpeechToText {
  const everyMs = opts.everyMs ?? REPLAY_EVERY_MS;
  const lines = opts.lines ?? REPLAY_LINES;
  if (!(everyMs > 0) || lines.length === 0) throw new Error('replay recogniser: everyMs > 0 and at least one line');
  return {
    id: 'replay:scripted',
    sampleRate: 8000,
    wantsSegments: false,
    transcribe: (audio$, o) =>
      new Observable<SttResult>((out) => {
        const perLine = Math.max(1, Math.round((o.sampleRate * everyMs) / 1000));
        audio$.subscribe(new ReplaySubscriber(out, perLine, lines));
      }),
  };
}

/** Counts the samples it is handed; after every `perLine` of them, the next scripted line, final. */
class ReplaySubscriber extends FrameSubscriber<Int16Array, SttResult> {
  private samples = 0;
  private said = 0;

  constructor(
    out: Subscriber<SttResult>,
    private readonly perLine: number,
    private readonly lines: readonly string[],
  ) {
    super(out);
  }

  protected override _next(pcm: Int16Array): void {
    if (frameProbe.enabled) frameProbe.handedOff();
    this.samples += pcm.length;
    while (this.samples >= (this.said + 1) * this.perLine) {
      this.out.next({ text: this.lines[this.said % this.lines.length]!, final: true });
      this.said++;
    }
  }
}
