/*
 * AWS Polly voice: SynthesizeSpeech with raw PCM (16-bit little-endian mono) at 16 kHz.
 * The endpoint follows the SDK's standard variables (AWS_ENDPOINT_URL_POLLY), region AWS_REGION.
 */
import { PollyClient, SynthesizeSpeechCommand, type VoiceId } from '@aws-sdk/client-polly';
import { ProviderError } from '../errors.js';
import type { SpeechAudio, TextToSpeech } from './types.js';

export interface PollyOptions {
  region?: string;
  endpoint?: string;
  /** Overrides every persona's voice (one deployment-wide voice). */
  voice?: string;
  engine?: 'standard' | 'neural';
}

const SAMPLE_RATE = 16000;

export function createPolly(opts: PollyOptions = {}): TextToSpeech {
  const client = new PollyClient({
    region: opts.region ?? process.env.AWS_REGION ?? 'us-east-1',
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
  });
  const engine = opts.engine ?? 'standard';
  return {
    id: `polly:${engine}`,
    voiceKind: 'polly',
    async synthesize(text: string, voice: string, signal: AbortSignal): Promise<SpeechAudio> {
      try {
        const out = await client.send(
          new SynthesizeSpeechCommand({
            Text: text,
            OutputFormat: 'pcm',
            SampleRate: String(SAMPLE_RATE),
            VoiceId: (opts.voice ?? voice) as VoiceId,
            Engine: engine,
          }),
          { abortSignal: signal },
        );
        if (!out.AudioStream) throw new Error('no audio in the response');
        const bytes = await out.AudioStream.transformToByteArray();
        const pcm = new Int16Array(Math.floor(bytes.length / 2));
        new Uint8Array(pcm.buffer).set(bytes.subarray(0, pcm.length * 2));
        return { pcm, sampleRate: SAMPLE_RATE };
      } catch (err) {
        if (err instanceof ProviderError) throw err;
        throw new ProviderError('polly', (err as Error).message || 'speech synthesis failed');
      }
    },
    async close(): Promise<void> {
      client.destroy();
    },
  };
}
