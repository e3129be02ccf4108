import { expect } from 'chai';
import { TranscribeStreamingClient } from '@aws-sdk/client-transcribe-streaming';
import { concatMap, delay, from, lastValueFrom, of, toArray, type Observable } from 'rxjs';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createSpeechToText } from '../../src/providers/stt/index.js';
import { createAwsTranscribe, IDENTIFY_OPTIONS, type AwsTranscribeOptions } from '../../src/providers/stt/aws.js';
import { ProviderError } from '../../src/providers/errors.js';
import type { SttResult } from '../../src/providers/stt/types.js';
import { chunked, tone } from '../fixtures/audio/signals.js';
import { startTranscribeServer, type Scenario, type TranscribeServer } from '../fixtures/stt-servers/transcribe.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const log = createLogger('silent');
const RATE = 16000;

describe('AWS Transcribe Streaming provider (real SDK against a local HTTP/2 event-stream server)', () => {
  let server: TranscribeServer;
  afterEach(async () => server?.close());

  async function transcribe(
    scenarios: Scenario[],
    audio: Int16Array,
    language?: string,
    options: AwsTranscribeOptions = {},
    paced = false,
  ): Promise<SttResult[]> {
    server = await startTranscribeServer(scenarios);
    const client = new TranscribeStreamingClient({
      endpoint: server.url,
      region: 'us-east-1',
      credentials: { accessKeyId: 'AKIDLOCALTEST', secretAccessKey: 'local-secret' },
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    const stt = createAwsTranscribe(log, { client, retryDelayMs: 10, ...options });
    const opts = language ? { sampleRate: RATE, language } : { sampleRate: RATE };
    try {
      // Paced: a 20 ms frame every 2 ms, so audio is still arriving when the connection fails (as on a live call).
      let frames$: Observable<Int16Array> = from(chunked(audio, RATE / 50));
      if (paced) frames$ = frames$.pipe(concatMap((f) => of(f).pipe(delay(2))));
      return await lastValueFrom(frames$.pipe((a$) => stt.transcribe(a$, opts), toArray()));
    } finally {
      client.destroy();
    }
  }

  it('streams 16 kHz PCM in the language asked for and returns the final transcript', async () => {
    const results = await transcribe([], tone(440, RATE, 1.5), 'en-US');
    const finals = results.filter((r) => r.final).map((r) => r.text);
    expect(finals).to.deep.equal(['stream 0 heard 1.5 seconds of 440 hertz']);
    expect(results.filter((r) => !r.final).length).to.be.greaterThan(0); // interim results are passed on, marked
    const s = server.streams[0]!;
    expect(s.headers[':path']).to.equal('/stream-transcription');
    expect(s.headers['x-amzn-transcribe-language-code']).to.equal('en-US');
    expect(s.headers['x-amzn-transcribe-sample-rate']).to.equal('16000');
    expect(s.headers['x-amzn-transcribe-media-encoding']).to.equal('pcm');
    expect(String(s.headers.authorization)).to.match(
      /^AWS4-HMAC-SHA256 Credential=AKIDLOCALTEST\/\d+\/us-east-1\/transcribe\//,
    );
    expect(s.ended).to.equal(true);
    expect(s.audio.length).to.equal(RATE * 1.5 * 2);
    // Queued audio goes in chunks of up to 400 ms rather than one message per 20 ms frame.
    expect(s.events).to.be.within(4, 15);
  });

  it('as selected by VOICE_STT=aws, finds its endpoint and credentials the standard SDK way (environment)', async () => {
    server = await startTranscribeServer();
    const names = [
      'AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING',
      'AWS_REGION',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
    ] as const;
    const saved = names.map((n) => process.env[n]);
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_TRANSCRIBE_STREAMING: server.url,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIDENVTEST',
      AWS_SECRET_ACCESS_KEY: 'env-secret',
    });
    try {
      const stt = await createSpeechToText(loadConfig({ VOICE_STT: 'aws' }), log);
      expect(stt?.id).to.equal('aws:transcribe-streaming');
      const results = await lastValueFrom(
        stt!.transcribe(from([tone(440, RATE, 0.5)]), { sampleRate: RATE, language: 'en-GB' }).pipe(toArray()),
      );
      expect(results.filter((r) => r.final).map((r) => r.text)).to.deep.equal([
        'stream 0 heard 0.5 seconds of 440 hertz',
      ]);
      const h = server.streams[0]!.headers;
      expect(h['x-amzn-transcribe-language-code']).to.equal('en-GB');
      expect(String(h.authorization)).to.match(/Credential=AKIDENVTEST\/\d+\/eu-west-1\/transcribe\//);
    } finally {
      names.forEach((n, i) => (saved[i] === undefined ? delete process.env[n] : (process.env[n] = saved[i])));
    }
  });

  it('maps a bare language to its region, and asks for identification when there is none', async () => {
    await transcribe([], tone(440, RATE, 0.3), 'es');
    expect(server.streams[0]!.headers['x-amzn-transcribe-language-code']).to.equal('es-US');
    await server.close();
    await transcribe([], tone(440, RATE, 0.3));
    const h = server.streams[0]!.headers;
    expect(h['x-amzn-transcribe-language-code']).to.equal(undefined);
    expect(h['x-amzn-transcribe-identify-language']).to.equal('true');
    expect(h['x-amzn-transcribe-language-options']).to.equal(IDENTIFY_OPTIONS);
  });

  it('reconnects after a service failure and sends again exactly the audio not yet finalised', async () => {
    const results = await transcribe(
      [
        {
          kind: 'exception',
          type: 'InternalFailureException',
          message: 'try again',
          finalAtBytes: RATE,
          afterBytes: RATE * 2,
        },
      ],
      tone(1000, RATE, 2),
      'en-US',
    );
    expect(server.streams).to.have.length(2);
    // 0.5 s finalised on the first stream; the other 1.5 s (sent but unconfirmed, or never sent) on the second.
    expect(results.filter((r) => r.final).map((r) => r.text)).to.deep.equal([
      'stream 0 heard 0.5 seconds of 1000 hertz',
      'stream 1 heard 1.5 seconds of 1000 hertz',
    ]);
  });

  it('reconnects when the connection drops mid-call (HTTP/2 stream reset)', async () => {
    const results = await transcribe([{ kind: 'reset', afterBytes: RATE }], tone(300, RATE, 1.5), 'en-US', {}, true);
    expect(server.streams.length).to.equal(2);
    expect(results.filter((r) => r.final).map((r) => r.text)).to.deep.equal([
      'stream 1 heard 1.5 seconds of 300 hertz',
    ]);
  });

  it('carries a long track over to a new stream before the per-stream limit', async () => {
    const results = await transcribe([], tone(440, RATE, 2.5), 'en-US', { maxStreamSeconds: 1 });
    expect(server.streams.map((s) => s.audio.length / 2 / RATE)).to.deep.equal([1, 1, 0.5]);
    expect(results.filter((r) => r.final).map((r) => r.text)).to.deep.equal([
      'stream 0 heard 1.0 seconds of 440 hertz',
      'stream 1 heard 1.0 seconds of 440 hertz',
      'stream 2 heard 0.5 seconds of 440 hertz',
    ]);
  });

  it('fails the track with a ProviderError on a refusal, without retrying', async () => {
    try {
      await transcribe(
        [{ kind: 'exception', type: 'BadRequestException', message: 'Unsupported language' }],
        tone(440, RATE, 0.5),
        'en-US',
      );
      expect.fail('should fail');
    } catch (e) {
      expect(e).to.be.instanceOf(ProviderError);
      expect((e as ProviderError).message).to.match(/BadRequestException: Unsupported language/);
      expect((e as ProviderError).provider).to.equal('aws:transcribe-streaming');
    }
    expect(server.streams).to.have.length(1);
  });

  it('gives up after repeated transient failures', async () => {
    const fail: Scenario = {
      kind: 'exception',
      type: 'ServiceUnavailableException',
      message: 'busy',
      afterBytes: 3200,
    };
    try {
      await transcribe([fail, fail, fail], tone(440, RATE, 2), 'en-US', { maxReconnects: 2 });
      expect.fail('should fail');
    } catch (e) {
      expect(e).to.be.instanceOf(ProviderError);
      expect((e as ProviderError).message).to.match(/ServiceUnavailableException: busy/);
    }
    expect(server.streams).to.have.length(3);
  });
});
