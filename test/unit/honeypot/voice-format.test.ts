import { expect } from 'chai';
import { ALAW_TO_PCM, MULAW_TO_PCM } from '../../../src/audio/g711.js';
import { linearToAlaw, linearToMulaw } from '../../../src/audio/g711-encode.js';
import { frameBytes, frameLevel, toClientAudio } from '../../../pipelines/honeypot/voice-format.js';

function tone(hz: number, rate: number, seconds: number, amp = 8000): Int16Array {
  const pcm = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(amp * Math.sin((2 * Math.PI * hz * i) / rate));
  return pcm;
}

describe('honeypot voice format', () => {
  it('G.711 encoders round-trip through the decoder tables within a quantisation step', () => {
    for (let v = -32000; v <= 32000; v += 97) {
      const mu = MULAW_TO_PCM[linearToMulaw(v)]!;
      const a = ALAW_TO_PCM[linearToAlaw(v)]!;
      const step = Math.max(16, Math.abs(v) / 16);
      expect(Math.abs(mu - v), `mu-law ${v}`).to.be.at.most(step);
      expect(Math.abs(a - v), `A-law ${v}`).to.be.at.most(step);
    }
    expect(linearToMulaw(0)).to.equal(0xff);
    expect(linearToAlaw(0)).to.equal(0xd5);
  });

  it('20 ms frames: 160 bytes mu-law 8 kHz, 640 bytes pcm16 16 kHz, 1920 bytes pcm16 48 kHz', () => {
    expect(frameBytes({ encoding: 'mulaw', sampleRate: 8000 })).to.equal(160);
    expect(frameBytes({ encoding: 'alaw', sampleRate: 8000 })).to.equal(160);
    expect(frameBytes({ encoding: 'pcm16', sampleRate: 16000 })).to.equal(640);
    expect(frameBytes({ encoding: 'pcm16', sampleRate: 48000 })).to.equal(1920);
  });

  it('TTS audio becomes the client format at the client rate, loudness kept, speech band only', () => {
    const speech = { pcm: tone(440, 22050, 1), sampleRate: 22050 };
    const mu = toClientAudio(speech, { encoding: 'mulaw', sampleRate: 8000 });
    expect(mu.length).to.be.within(7990, 8000);
    expect(frameLevel(mu, { encoding: 'mulaw', sampleRate: 8000 }).rms).to.be.within(5000, 6300);
    const pcm = toClientAudio(speech, { encoding: 'pcm16', sampleRate: 16000 });
    expect(pcm.length).to.be.within(2 * 15990, 2 * 16000);
    // 6 kHz cannot exist at 8 kHz: filtered out, not folded back as a 2 kHz ghost.
    const high = toClientAudio(
      { pcm: tone(6000, 22050, 1), sampleRate: 22050 },
      { encoding: 'pcm16', sampleRate: 8000 },
    );
    expect(frameLevel(high, { encoding: 'pcm16', sampleRate: 8000 }).rms).to.be.below(400);
  });

  it('measures a caller frame: level and length', () => {
    const quiet = frameLevel(new Uint8Array(160).fill(0xff), { encoding: 'mulaw', sampleRate: 8000 });
    expect(quiet).to.deep.equal({ rms: 0, ms: 20 });
  });
});
