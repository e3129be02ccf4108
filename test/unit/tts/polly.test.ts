import { expect } from 'chai';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { createPolly } from '../../../src/providers/tts/polly.js';
import { ProviderError } from '../../../src/providers/errors.js';

/** A local server speaking Polly's REST protocol (POST /v1/speech → audio body); the SDK talks HTTP/2 to Polly. */
function pollyServer(): Promise<{
  url: string;
  requests: Array<{ path: string; body: Record<string, unknown>; auth: string }>;
  close(): Promise<void>;
}> {
  const requests: Array<{ path: string; body: Record<string, unknown>; auth: string }> = [];
  const server = http2.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      requests.push({ path: req.url ?? '', body, auth: String(req.headers.authorization ?? '') });
      if (body.VoiceId === 'Nobody') {
        res.writeHead(400, {
          'content-type': 'application/json',
          'x-amzn-errortype': 'InvalidParameterValueException',
        });
        res.end(JSON.stringify({ message: 'Voice Nobody is not available' }));
        return;
      }
      // 0.5 s of a 440 Hz tone at 16 kHz, s16le.
      const pcm = Buffer.alloc(16000);
      for (let i = 0; i < 8000; i++)
        pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)), i * 2);
      res.writeHead(200, { 'content-type': 'audio/pcm', 'x-amzn-requestcharacters': String(String(body.Text).length) });
      res.end(pcm);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

describe('tts: AWS Polly adapter against a local Polly endpoint', () => {
  let srv: Awaited<ReturnType<typeof pollyServer>>;
  const saved = { ...process.env };
  before(async () => {
    srv = await pollyServer();
    process.env.AWS_ENDPOINT_URL_POLLY = srv.url;
    process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
    process.env.AWS_SECRET_ACCESS_KEY = 'dummy-secret';
    process.env.AWS_REGION = 'us-east-1';
  });
  after(async () => {
    for (const k of ['AWS_ENDPOINT_URL_POLLY', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await srv.close();
  });

  it('asks for 16 kHz PCM in the persona voice and returns the samples', async () => {
    const tts = createPolly();
    const audio = await tts.synthesize('Hello, dear.', 'Joanna', new AbortController().signal);
    expect(audio.sampleRate).to.equal(16000);
    expect(audio.pcm.length).to.equal(8000);
    expect(Math.max(...audio.pcm)).to.be.within(7900, 8000);
    const req = srv.requests.at(-1)!;
    expect(req.path).to.equal('/v1/speech');
    expect(req.body).to.include({ Text: 'Hello, dear.', OutputFormat: 'pcm', SampleRate: '16000', VoiceId: 'Joanna' });
    expect(req.auth).to.match(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\//);
    expect(tts.id).to.equal('polly:standard');
    await tts.close?.();
  });

  it('a deployment voice overrides the persona voice', async () => {
    const tts = createPolly({ voice: 'Matthew' });
    await tts.synthesize('Hi', 'Joanna', new AbortController().signal);
    expect(srv.requests.at(-1)!.body.VoiceId).to.equal('Matthew');
  });

  it('turns a Polly refusal into a ProviderError carrying its message', async () => {
    const tts = createPolly();
    try {
      await tts.synthesize('Hi', 'Nobody', new AbortController().signal);
      expect.fail('expected a refusal');
    } catch (err) {
      expect(err).to.be.instanceOf(ProviderError);
      expect((err as Error).message).to.contain('Voice Nobody is not available');
    }
  });
});
