import { expect } from 'chai';
import { probeDuration, transcribeScanAudio, type ScanAudioInput } from '../../../pipelines/scan/audio.js';
import { writeWav } from '../../../src/audio/wav.js';
import { pcm16ToBytes } from '../../../src/audio/pcm16.js';
import { encodeMulaw } from '../../../src/audio/g711-encode.js';
import { HttpError } from '../../../src/server/types.js';
import { scanAudioHttpError } from '../../../src/server/routes/scan-audio-errors.js';
import { createLogger } from '../../../src/log.js';
import { createSphinx, detectSphinx } from '../../../src/providers/stt/sphinx.js';
import { createWhisper } from '../../../src/providers/stt/whisper.js';
import { tone } from '../../fixtures/audio/signals.js';
import { espeakAvailable, ffmpegAvailable, ffmpegConvert, synthesise } from '../../fixtures/audio/speech.js';
import { startWhisperServer } from '../../fixtures/stt-servers/whisper.js';

const field = 'audio_base64' as const;

/** The stage's failure as the scan route answers it. */
async function rejection(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (err) {
    const e = scanAudioHttpError(err);
    expect(e).to.be.instanceOf(HttpError);
    return e as HttpError;
  }
  throw new Error('expected a rejection');
}

function input(bytes: Buffer, encoding: ScanAudioInput['encoding'], sampleRate?: number): ScanAudioInput {
  return sampleRate === undefined ? { bytes, encoding, field } : { bytes, encoding, field, sampleRate };
}

describe('audio/scan-audio', () => {
  describe('probeDuration (prices before transcribing)', () => {
    it('measures WAV, pcm16 and mu-law uploads', async () => {
      expect(await probeDuration(input(writeWav(tone(440, 16000, 2.5), 16000), 'wav'))).to.equal(2.5);
      expect(await probeDuration(input(pcm16ToBytes(tone(440, 24000, 1.5)), 'pcm16', 24000))).to.equal(1.5);
      expect(await probeDuration(input(Buffer.from(encodeMulaw(tone(440, 8000, 61))), 'mulaw'))).to.equal(61);
      expect(await probeDuration(input(Buffer.from(encodeMulaw(tone(440, 16000, 1))), 'mulaw', 16000))).to.equal(1);
    });

    (ffmpegAvailable ? it : it.skip)(
      'measures MP3, OGG, AAC, M4A and FLAC uploads through ffmpeg (recognised by their magic bytes)',
      async () => {
        const wav = writeWav(tone(440, 8000, 3), 8000);
        for (const args of [
          ['-f', 'mp3'],
          ['-c:a', 'libopus', '-f', 'ogg'],
          ['-c:a', 'aac', '-f', 'adts'],
          ['-c:a', 'aac', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'],
          ['-c:a', 'flac', '-f', 'flac'],
        ]) {
          const seconds = await probeDuration(input(ffmpegConvert(wav, args), 'wav'));
          expect(seconds, args.join(' ')).to.be.within(2.9, 3.2); // codecs pad a few frames
        }
      },
    );

    it('refuses bad audio with 400 naming the field', async () => {
      const cases: Array<[ScanAudioInput, RegExp]> = [
        [
          input(Buffer.from('hello, this is not audio'), 'wav'),
          /^audio_base64: not a WAV file or a recognised audio format/,
        ],
        [input(Buffer.alloc(0), 'wav'), /^audio_base64: no audio/],
        [input(writeWav(tone(440, 8000, 1), 8000).subarray(0, 1000), 'wav'), /^audio_base64: truncated/],
        [{ ...input(Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt '), 'wav'), field: 'audio' }, /^audio: /],
        [input(Buffer.alloc(10), 'pcm16'), /^sample_rate: required for pcm16/],
        [input(Buffer.alloc(1), 'pcm16', 8000), /^audio_base64: no audio/],
      ];
      for (const [i, message] of cases) {
        const e = await rejection(probeDuration(i));
        expect(e.status).to.equal(400);
        expect(e.message).to.match(message);
      }
    });

    (ffmpegAvailable ? it : it.skip)('refuses a corrupt compressed file with 400', async () => {
      const fake = Buffer.concat([Buffer.from('OggS'), Buffer.alloc(400, 7)]);
      const e = await rejection(probeDuration(input(fake, 'wav')));
      expect(e.status).to.equal(400);
      expect(e.message).to.match(/^audio_base64: unreadable ogg recording/);
    });
  });

  describe('transcribeScanAudio', () => {
    it('answers 502 when there is no recogniser', async () => {
      const e = await rejection(transcribeScanAudio({ stt: null }, input(writeWav(tone(440, 8000, 1), 8000), 'wav')));
      expect(e.status).to.equal(502);
    });

    (espeakAvailable ? it : it.skip)(
      'answers 502 when the recogniser fails, and passes the utterances of a working one as the caller',
      async () => {
        const server = await startWhisperServer();
        try {
          const stt = createWhisper({ url: server.url });
          const speech = synthesise('Hello, this is your bank.');
          const wav = writeWav(speech.samples, speech.sampleRate);
          server.failures.push(500, 500);
          const e = await rejection(transcribeScanAudio({ stt }, input(wav, 'wav')));
          expect(e.status).to.equal(502);
          expect(e.message).to.match(/^transcription failed: HTTP 500/);

          const ok = await transcribeScanAudio({ stt }, { ...input(wav, 'wav'), language: 'en' });
          expect(ok.seconds).to.equal(speech.samples.length / speech.sampleRate);
          expect(ok.utterances).to.have.length(1);
          expect(ok.utterances[0]).to.include({ role: 'caller', speaker: 'caller' });
          expect(ok.utterances[0]!.text).to.match(/^heard \d\.\d seconds/);
          expect(server.requests.at(-1)!.fields.language).to.equal('en');
        } finally {
          await server.close();
        }
      },
    );

    const sphinx = detectSphinx();
    (sphinx && espeakAvailable && ffmpegAvailable ? it : it.skip)(
      'transcribes a spoken MP3 with the embedded recogniser',
      async function () {
        this.timeout(120_000);
        const speech = synthesise('Please call the bank today about your credit card.');
        // A narrowband MP3 as call recorders write it (32 kbit/s; ffmpeg's 8 kbit/s default is unintelligible).
        const mp3 = ffmpegConvert(speech.wav, ['-ar', '8000', '-b:a', '32k', '-f', 'mp3']);
        const result = await transcribeScanAudio(
          { stt: createSphinx(sphinx!, createLogger('silent')) },
          input(mp3, 'wav'),
        );
        expect(result.seconds).to.be.within(2, 6);
        expect(result.utterances.map((u) => u.text).join(' ')).to.match(/about your credit card/);
        expect(result.utterances.every((u) => u.role === 'caller' && u.speaker === 'caller')).to.equal(true);
      },
    );

    it('stops at once when the request is aborted', async () => {
      const server = await startWhisperServer();
      try {
        const abort = new AbortController();
        abort.abort(new HttpError(504, 'timed out'));
        const stt = createWhisper({ url: server.url });
        const wav = writeWav(tone(300, 8000, 1.5, 8000), 8000);
        const e = await rejection(transcribeScanAudio({ stt }, input(wav, 'wav'), abort.signal));
        expect(e.status).to.equal(504);
      } finally {
        await server.close();
      }
    });
  });
});
