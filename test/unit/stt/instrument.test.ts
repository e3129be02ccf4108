import { expect } from 'chai';
import { from, lastValueFrom, map, reduce, toArray } from 'rxjs';
import { instrumentStt } from '../../../src/observability/instrument.js';
import { metrics } from '../../../src/observability/metrics.js';
import type { SpeechToText } from '../../../src/providers/stt/types.js';

async function calls(provider: string, outcome: string): Promise<number> {
  const m = await metrics.providerCalls.get();
  return (
    m.values.find((v) => v.labels.provider === provider && v.labels.op === 'transcribe' && v.labels.outcome === outcome)
      ?.value ?? 0
  );
}

/** A recogniser that reports how many samples it heard, once the audio has ended. */
const counting = (id: string, fail = false): SpeechToText => ({
  id,
  sampleRate: 8000,
  wantsSegments: false,
  transcribe: (audio$) =>
    audio$.pipe(
      reduce((n, pcm) => n + pcm.length, 0),
      map((n) => {
        if (fail) throw new Error('refused');
        return { text: `heard ${n}`, final: true };
      }),
    ),
});

describe('speech-to-text instrumentation', () => {
  it('passes every chunk and result through and counts the call once the audio has ended', async () => {
    const stt = instrumentStt(counting('test:count'));
    const before = await calls('test:count', 'ok');
    const chunks = [new Int16Array(160), new Int16Array(160), new Int16Array(80)];
    const out = await lastValueFrom(stt.transcribe(from(chunks), { sampleRate: 8000 }).pipe(toArray()));
    expect(out).to.deep.equal([{ text: 'heard 400', final: true }]);
    expect((await calls('test:count', 'ok')) - before).to.equal(1);
    expect(stt.id).to.equal('test:count');
  });

  it('counts a failed call as an error and passes the error on', async () => {
    const stt = instrumentStt(counting('test:fail', true));
    const before = await calls('test:fail', 'error');
    const err = await lastValueFrom(stt.transcribe(from([new Int16Array(8)]), { sampleRate: 8000 })).catch(
      (e: unknown) => e,
    );
    expect((err as Error).message).to.equal('refused');
    expect((await calls('test:fail', 'error')) - before).to.equal(1);
  });
});
