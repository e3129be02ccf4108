import { expect } from 'chai';
import { Observable, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { transcribe } from '../../../operators/transcribe.js';
import type { SpeechToText, SttOptions, SttResult } from '../../../src/providers/stt/types.js';

const scheduler = () =>
  new TestScheduler((a, b) => {
    expect(a).to.deep.equal(b);
  });

/** A recognising port: one `transcribe` call per request, the audio it was given and the options it was asked with. */
interface FakeStt extends SpeechToText {
  requests: Array<{ opts: SttOptions; audio: Observable<Int16Array> }>;
}

function fakeStt(
  wantsSegments: boolean,
  recognise: (audio: Observable<Int16Array>, n: number) => Observable<SttResult>,
): FakeStt {
  const requests: FakeStt['requests'] = [];
  return {
    id: 'fake:stt',
    sampleRate: 16000,
    wantsSegments,
    requests,
    transcribe(audio, opts) {
      requests.push({ audio, opts });
      return recognise(audio, requests.length);
    },
  };
}

const pcm = (n: number): Int16Array => new Int16Array(n);
const said = (text: string, final = true): SttResult => ({ text, final });

describe('transcribe operator', () => {
  it('gives a segmenting recogniser one request per utterance, in order, and writes spoken numbers as digits', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answers = [
        cold('5ms i 4ms (f|)', { i: said('call two oh', false), f: said('call two oh two five five five') }),
        cold('10ms (f|)', { f: said('thank you') }),
      ];
      const stt = fakeStt(true, (_audio, n) => answers[n - 1]!);
      const utterances$ = cold('a-b|', { a: pcm(320), b: pcm(160) });
      // The second utterance waits for the first's recognition (10 ms), then takes its own 10 ms.
      expectObservable(utterances$.pipe(transcribe(stt))).toBe('5ms i 4ms f 9ms (g|)', {
        i: said('call two oh', false),
        f: said('call 202555'),
        g: said('thank you'),
      });
      expectSubscriptions(utterances$.subscriptions).toBe('^--!');
      expectSubscriptions(answers[0]!.subscriptions).toBe('^ 9ms !');
      expectSubscriptions(answers[1]!.subscriptions).toBe('10ms ^ 9ms !');
    });
  });

  it('gives a streaming recogniser the whole stream in one request', () => {
    const ts = scheduler();
    let stt: FakeStt | undefined;
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      // Results as the audio flows: one interim per chunk, then the final once the audio has ended.
      stt = fakeStt(
        false,
        (audio) =>
          new Observable<SttResult>((sub) =>
            audio.subscribe({
              next: (chunk) => sub.next(said(`${chunk.length} samples`, false)),
              error: (e: unknown) => sub.error(e),
              complete: () => {
                sub.next(said('my number is nine one one'));
                sub.complete();
              },
            }),
          ),
      );
      const audio$ = cold('a-b-|', { a: pcm(320), b: pcm(160) });
      const out$ = audio$.pipe(transcribe(stt, { language: 'en-US', sourceRate: 8000, priority: 'live' }));
      expectObservable(out$).toBe('a-b-(f|)', {
        a: said('320 samples', false),
        b: said('160 samples', false),
        f: said('my number is 911'),
      });
      expectSubscriptions(audio$.subscriptions).toBe('^---!');
    });
    expect(stt?.requests).to.have.length(1);
  });

  it('asks with the recogniser rate, the language, the source rate and the priority', () => {
    const ts = scheduler();
    const stt = fakeStt(false, (audio) => audio.pipe(map(() => said('hola'))));
    ts.run(({ cold, expectObservable }) => {
      const out$ = cold('a|', { a: pcm(10) }).pipe(
        transcribe(stt, { language: 'es', sourceRate: 8000, priority: 'scan' }),
      );
      // Not English: numbers are left as recognised.
      expectObservable(out$).toBe('a|', { a: said('hola') });
    });
    expect(stt.requests.map((r) => r.opts)).to.deep.equal([
      { sampleRate: 16000, language: 'es', sourceRate: 8000, priority: 'scan' },
    ]);
  });

  it('lets go of the audio and of the recognition in flight when unsubscribed', () => {
    const ts = scheduler();
    ts.run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const answer = cold<SttResult>('50ms (f|)', { f: said('too late') });
      const stt = fakeStt(true, () => answer);
      const utterances$ = hot('a 100ms a', { a: pcm(320) });
      expectObservable(utterances$.pipe(transcribe(stt)), '^ 19ms !').toBe('');
      expectSubscriptions(utterances$.subscriptions).toBe('^ 19ms !');
      expectSubscriptions(answer.subscriptions).toBe('^ 19ms !');
    });
  });

  it('passes a refusal of the recogniser on as the error of the stream', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      const stt = fakeStt(true, () => cold<SttResult>('5ms #', undefined, new Error('stt refused: quota')));
      const utterances$ = cold('a 20ms a', { a: pcm(320) });
      expectObservable(utterances$.pipe(transcribe(stt))).toBe('5ms #', undefined, new Error('stt refused: quota'));
      expectSubscriptions(utterances$.subscriptions).toBe('^ 4ms !');
    });
  });
});
