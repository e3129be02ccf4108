import { expect } from 'chai';
import { parseWav, wavToMono, writeWav, WavError, isWav } from '../../../src/audio/wav.js';
import { ffmpegAvailable, ffmpegConvert } from '../../fixtures/audio/speech.js';
import { tone } from '../../fixtures/audio/signals.js';

interface Header {
  format?: number;
  channels?: number;
  rate?: number;
  bits?: number;
  blockAlign?: number;
  dataSize?: number;
  extra?: Buffer[];
}

/** A WAV file with a hand-written header, so each field can lie. */
function wav(data: Buffer, h: Header = {}): Buffer {
  const channels = h.channels ?? 1;
  const bits = h.bits ?? 16;
  const rate = h.rate ?? 8000;
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(h.format ?? 1, 8);
  fmt.writeUInt16LE(channels, 10);
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE((rate * channels * bits) / 8, 16);
  fmt.writeUInt16LE(h.blockAlign ?? (channels * bits) / 8, 20);
  fmt.writeUInt16LE(bits, 22);
  const dataHeader = Buffer.alloc(8);
  dataHeader.write('data', 0, 'ascii');
  dataHeader.writeUInt32LE(h.dataSize ?? data.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE'), fmt, ...(h.extra ?? []), dataHeader, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

function le16(...samples: number[]): Buffer {
  const b = Buffer.alloc(samples.length * 2);
  samples.forEach((s, i) => b.writeInt16LE(s, i * 2));
  return b;
}

function expectWavError(bytes: Buffer, pattern: RegExp): void {
  expect(() => parseWav(bytes)).to.throw(WavError, pattern);
}

describe('audio/wav', () => {
  it('reads 16-bit PCM', () => {
    const info = parseWav(wav(le16(1, -2, 300, -32768)));
    expect(info).to.include({ codec: 'pcm', sampleRate: 8000, channels: 1, bitsPerSample: 16, frames: 4 });
    expect(Array.from(wavToMono(info))).to.deep.equal([1, -2, 300, -32768]);
  });

  it('reads unsigned 8-bit PCM', () => {
    const info = parseWav(wav(Buffer.from([128, 255, 0]), { bits: 8 }));
    expect(Array.from(wavToMono(info))).to.deep.equal([0, 127 << 8, -32768]);
  });

  it('reads G.711 mu-law and A-law', () => {
    const mu = parseWav(wav(Buffer.from([0xff, 0x80, 0x00]), { format: 7, bits: 8 }));
    expect(mu.codec).to.equal('mulaw');
    expect(Array.from(wavToMono(mu))).to.deep.equal([0, 32124, -32124]);
    const a = parseWav(wav(Buffer.from([0xd5, 0x55]), { format: 6, bits: 8 }));
    expect(a.codec).to.equal('alaw');
    expect(Array.from(wavToMono(a))).to.deep.equal([8, -8]);
  });

  it('averages stereo to mono', () => {
    const info = parseWav(wav(le16(100, 300, -100, -300), { channels: 2 }));
    expect(Array.from(wavToMono(info))).to.deep.equal([200, -200]);
  });

  it('skips unknown chunks, including odd-sized ones with their pad byte', () => {
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([3, 0, 0, 0]), Buffer.from('abc'), Buffer.from([0])]);
    const info = parseWav(wav(le16(7, 8), { extra: [list] }));
    expect(Array.from(wavToMono(info))).to.deep.equal([7, 8]);
  });

  it('accepts a streamed WAV whose data size is unknown (0xFFFFFFFF)', () => {
    const info = parseWav(wav(le16(1, 2, 3), { dataSize: 0xffffffff }));
    expect(info.frames).to.equal(3);
  });

  it('drops a trailing partial sample', () => {
    const info = parseWav(wav(Buffer.concat([le16(5, 6), Buffer.from([1])])));
    expect(info.frames).to.equal(2);
  });

  it('refuses truncated files and lying headers', () => {
    expectWavError(
      wav(le16(1, 2), { dataSize: 4000 }),
      /truncated: the header declares 4000 bytes of audio but 4 are present/,
    );
    expectWavError(wav(le16(1, 2)).subarray(0, 30), /truncated fmt chunk/);
    expectWavError(wav(le16(1, 2), { blockAlign: 4 }), /inconsistent header/);
    expectWavError(wav(le16(1, 2), { channels: 0 }), /channel count/);
    expectWavError(wav(le16(1, 2), { rate: 0 }), /sample rate 0/);
    expectWavError(wav(le16(1, 2), { bits: 12, blockAlign: 2 }), /12-bit pcm/);
    expectWavError(wav(Buffer.alloc(0)), /no audio/);
    expectWavError(Buffer.from('RIFF\x04\x00\x00\x00WAVE'), /no fmt chunk/);
    expectWavError(Buffer.from('not a wav file at all'), /not a WAV file/);
    expectWavError(Buffer.from('RIFF'), /too short/);
  });

  it('reports a compressed codec as unsupported, so another decoder can take it', () => {
    try {
      parseWav(wav(Buffer.alloc(10), { format: 0x11, bits: 4, blockAlign: 256 }));
      expect.fail('should throw');
    } catch (e) {
      expect(e).to.be.instanceOf(WavError);
      expect((e as WavError).unsupportedCodec).to.equal(true);
    }
  });

  it('writes a canonical WAV that reads back', () => {
    const samples = tone(440, 16000, 0.05);
    const file = writeWav(samples, 16000);
    expect(isWav(file)).to.equal(true);
    expect(file.length).to.equal(44 + samples.length * 2);
    const info = parseWav(file);
    expect(info.sampleRate).to.equal(16000);
    expect(Array.from(wavToMono(info))).to.deep.equal(Array.from(samples));
  });

  (ffmpegAvailable ? it : it.skip)('reads what ffmpeg writes: PCM, mu-law and A-law, extensible headers', () => {
    const source = writeWav(tone(500, 8000, 0.1), 8000);
    for (const codec of ['pcm_s16le', 'pcm_u8', 'pcm_mulaw', 'pcm_alaw', 'pcm_s24le']) {
      const info = parseWav(ffmpegConvert(source, ['-c:a', codec, '-f', 'wav']));
      expect(info.frames, codec).to.equal(800);
      const mono = wavToMono(info);
      // Every codec keeps the tone within its quantisation error.
      const maxErr = Math.max(...Array.from(mono).map((v, i) => Math.abs(v - tone(500, 8000, 0.1)[i]!)));
      expect(maxErr, codec).to.be.lessThan(codec === 'pcm_u8' ? 300 : 700);
    }
    const stereo = parseWav(ffmpegConvert(source, ['-ac', '2', '-c:a', 'pcm_s16le', '-f', 'wav', '-rf64', 'never']));
    expect(stereo.channels).to.equal(2);
  });
});
