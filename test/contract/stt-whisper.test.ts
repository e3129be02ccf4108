import { expect } from 'chai';
import { from, lastValueFrom, toArray } from 'rxjs';
import { transcribeAudio } from '../../pipelines/live/transcription.js';
import { createWhisper } from '../../src/providers/stt/whisper.js';
import { ProviderError } from '../../src/providers/errors.js';
import type { AudioFrame } from '../../src/domain/frames.js';
import { encodeMulaw } from '../../src/audio/g711-encode.js';
import { chunked, concat, silence, tone } from '../fixtures/audio/signals.js';
import { startWhisperServer, type WhisperServer } from '../fixtures/stt-servers/whisper.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createSpeechToText } from '../../src/providers/stt/index.js';

async function refusal(stt: { transcribe: ReturnType<typeof createWhisper>['transcribe'] }): Promise<Error> {
  try {
    await lastValueFrom(stt.transcribe(from([tone(440, 16000, 0.5)]), { sampleRate: 16000 }));
  } catch (e) {
    return e as Error;
  }
  throw new Error('the server took the request');
}

describe('OpenAI-style transcription provider (local /v1/audio/transcriptions server)', () => {
  let server: WhisperServer;
  beforeEach(async () => {
    server = await startWhisperServer();
  });
  afterEach(async () => server.close());

  it('posts each utterance as a 16 kHz WAV with model, language and response_format', async () => {
    const stt = createWhisper({ url: server.url, apiKey: 'sk-local' });
    expect(stt).to.include({ id: 'whisper:whisper-1', sampleRate: 16000, wantsSegments: true });
    const utterances = [tone(440, 16000, 1.2), tone(1000, 16000, 0.6)];
    const results = await lastValueFrom(
      stt.transcribe(from(utterances), { sampleRate: 16000, language: 'en-US' }).pipe(toArray()),
    );
    expect(results).to.deep.equal([
      { text: 'heard 1.2 seconds of 440 hertz', final: true },
      { text: 'heard 0.6 seconds of 1000 hertz', final: true },
    ]);
    const r = server.requests[0]!;
    expect(r.fields).to.deep.equal({ model: 'whisper-1', language: 'en', response_format: 'json' });
    expect(r).to.include({
      filename: 'utterance.wav',
      contentType: 'audio/wav',
      sampleRate: 16000,
      authorization: 'Bearer sk-local',
    });
  });

  it('is fed by the segmenter: mu-law 8 kHz frames → decode → resample → one request per utterance', async () => {
    const stt = createWhisper({ url: server.url });
    // Two bursts of a 300 Hz voiced sound (the VAD takes a low hum for voice) with a pause between.
    const call = concat(tone(300, 8000, 1, 8000), silence(8000, 1.2), tone(300, 8000, 0.8, 8000), silence(8000, 1));
    const frames: AudioFrame[] = chunked(encodeMulaw(call), 160).map((data) => ({
      kind: 'audio',
      track: 'inbound',
      data,
    }));
    const results = await lastValueFrom(
      transcribeAudio(from(frames), { encoding: 'mulaw', sampleRate: 8000 }, stt, {
        segmenter: { mode: 0 },
      }).pipe(toArray()),
    );
    expect(server.requests).to.have.length(2);
    expect(results.map((r) => r.text)).to.have.length(2);
    expect(results.every((r) => r.final && /of 300 hertz$/.test(r.text))).to.equal(true);
    expect(server.requests.every((r) => r.sampleRate === 16000)).to.equal(true);
  });

  it('retries a 5xx once, then succeeds', async () => {
    server.failures.push(503);
    const stt = createWhisper({ url: server.url });
    const results = await lastValueFrom(
      stt.transcribe(from([tone(440, 16000, 0.5)]), { sampleRate: 16000 }).pipe(toArray()),
    );
    expect(results.map((r) => r.text)).to.deep.equal(['heard 0.5 seconds of 440 hertz']);
    expect(server.requests).to.have.length(2);
    expect(server.requests[0]!.fields).to.not.have.property('language');
  });

  it('turns a refusal into a ProviderError without retrying', async () => {
    server.failures.push(401);
    const stt = createWhisper({ url: server.url });
    try {
      await lastValueFrom(stt.transcribe(from([tone(440, 16000, 0.5)]), { sampleRate: 16000 }));
      expect.fail('should fail');
    } catch (e) {
      expect(e).to.be.instanceOf(ProviderError);
      expect((e as Error).message).to.match(/HTTP 401/);
    }
    expect(server.requests).to.have.length(1);
  });

  it('reports an unreachable server as a ProviderError', async () => {
    const url = server.url;
    await server.close();
    const stt = createWhisper({ url, retries: 0 });
    try {
      await lastValueFrom(stt.transcribe(from([tone(440, 16000, 0.2)]), { sampleRate: 16000 }));
      expect.fail('should fail');
    } catch (e) {
      expect(e).to.be.instanceOf(ProviderError);
      expect((e as Error).message).to.match(/unreachable/);
    }
    server = await startWhisperServer();
  });

  describe('configured from the environment (VOICE_WHISPER_MODEL, VOICE_WHISPER_API_KEY)', () => {
    let guarded: WhisperServer;
    beforeEach(async () => {
      guarded = await startWhisperServer({ apiKey: 'sk-live-123', models: ['Systran/faster-whisper-small'] });
    });
    afterEach(async () => guarded.close());
    const env = (extra: Record<string, string>): Record<string, string> => ({
      VOICE_STT: 'whisper',
      VOICE_WHISPER_URL: guarded.url,
      ...extra,
    });

    it('sends the configured model and key, and is named after the model', async () => {
      const stt = await createSpeechToText(
        loadConfig(env({ VOICE_WHISPER_MODEL: 'Systran/faster-whisper-small', VOICE_WHISPER_API_KEY: 'sk-live-123' })),
        createLogger('silent'),
      );
      expect(stt?.id).to.equal('whisper:Systran/faster-whisper-small');
      const results = await lastValueFrom(
        stt!.transcribe(from([tone(1000, 16000, 0.7)]), { sampleRate: 16000 }).pipe(toArray()),
      );
      expect(results).to.deep.equal([{ text: 'heard 0.7 seconds of 1000 hertz', final: true }]);
      expect(guarded.requests[0]).to.include({ authorization: 'Bearer sk-live-123' });
      expect(guarded.requests[0]!.fields.model).to.equal('Systran/faster-whisper-small');
    });

    it('surfaces a wrong key (401) and an unknown model (404) as provider errors, not retried', async () => {
      const log = createLogger('silent');
      const wrongKey = await createSpeechToText(
        loadConfig(env({ VOICE_WHISPER_MODEL: 'Systran/faster-whisper-small', VOICE_WHISPER_API_KEY: 'sk-old' })),
        log,
      );
      const e1 = await refusal(wrongKey!);
      expect(e1).to.be.instanceOf(ProviderError);
      expect(e1.message).to.match(/HTTP 401.*invalid_api_key/);
      const noKey = await createSpeechToText(
        loadConfig(env({ VOICE_WHISPER_MODEL: 'Systran/faster-whisper-small' })),
        log,
      );
      expect((await refusal(noKey!)).message).to.match(/HTTP 401/);
      const defaultModel = await createSpeechToText(loadConfig(env({ VOICE_WHISPER_API_KEY: 'sk-live-123' })), log);
      expect((await refusal(defaultModel!)).message).to.match(/HTTP 404.*model_not_found/);
      expect(guarded.requests).to.have.length(3);
    });
  });
});
