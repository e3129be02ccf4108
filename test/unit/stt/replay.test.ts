import { expect } from 'chai';
import { lastValueFrom, from, toArray } from 'rxjs';
import { createReplay, REPLAY_LINES } from '../../../src/providers/stt/replay.js';
import { frameProbe } from '../../../src/observability/frame-probe.js';

const chunk = (samples: number) => new Int16Array(samples);

describe('replay recogniser', () => {
  it('emits one scripted final line per interval of audio, at the offset, cycling the script', async () => {
    const stt = createReplay({ everyMs: 100, lines: ['one', 'two'] });
    // 8 kHz: 800 samples per line; 20 ms chunks of 160 samples; 26 chunks = 4160 samples → 5 lines.
    const results = await lastValueFrom(
      stt.transcribe(from(Array.from({ length: 26 }, () => chunk(160))), { sampleRate: 8000 }).pipe(toArray()),
    );
    expect(results).to.deep.equal([
      { text: 'one', final: true },
      { text: 'two', final: true },
      { text: 'one', final: true },
      { text: 'two', final: true },
      { text: 'one', final: true },
    ]);
  });

  it('emits nothing before the first offset', async () => {
    const stt = createReplay();
    const results = await lastValueFrom(stt.transcribe(from([chunk(100)]), { sampleRate: 8000 }).pipe(toArray()));
    expect(results).to.deep.equal([]);
    expect(REPLAY_LINES.length).to.be.greaterThan(3);
  });

  it('records the hand-off of a frame to the probe only when the probe is on', async () => {
    const before = frameProbe.handoffNs.count;
    const stt = createReplay();
    frameProbe.arrived();
    await lastValueFrom(stt.transcribe(from([chunk(160)]), { sampleRate: 8000 }).pipe(toArray()), { defaultValue: [] });
    expect(frameProbe.handoffNs.count).to.equal(before);
    frameProbe.enabled = true;
    try {
      frameProbe.arrived();
      await lastValueFrom(stt.transcribe(from([chunk(160)]), { sampleRate: 8000 }).pipe(toArray()));
      expect(frameProbe.handoffNs.count).to.equal(before + 1);
    } finally {
      frameProbe.enabled = false;
    }
  });
});
