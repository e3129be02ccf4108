import os from 'node:os';
import { expect } from 'chai';
import { resampleAll } from '../../src/audio/resampler.js';
import { encodeMulaw } from '../../src/audio/g711-encode.js';
import { createSphinx, detectSphinx } from '../../src/providers/stt/sphinx.js';
import { espeakAvailable, synthesise } from '../fixtures/audio/speech.js';
import { concat, silence } from '../fixtures/audio/signals.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openLive, send, transcript, waitFor, type LiveRun } from './helpers/live-client.js';
import { startLiveApp, type LiveApp } from './helpers/live-node.js';

/** A caller's sentence as a telephony vendor sends it: 8 kHz mu-law, then a second of silence. */
function callAudio(text: string): Buffer {
  const speech = synthesise(text);
  return Buffer.from(encodeMulaw(concat(resampleAll(speech.samples, speech.sampleRate, 8000), silence(8000, 1))));
}

async function audioCall(app: LiveApp, key: string, audio: Buffer): Promise<LiveRun> {
  const run = await openLive(`${app.wsUrl}/voice/filter/stream?key=${key}`);
  send(run, { type: 'start', sample_rate: 8000, encoding: 'mulaw' });
  await waitFor(run, 'session.started');
  for (let i = 0; i < audio.length; i += 1600) run.ws.send(audio.subarray(i, i + 1600));
  return run;
}

async function metric(server: TestServer, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

const callerLines = (run: LiveRun): string[] =>
  run.events.filter((e) => e.type === 'transcript.line' && e.speaker === 'caller').map((e) => e.text as string);

describe('live filter: capacity of the embedded recogniser', function () {
  // The recogniser on a shared two-core host can be far slower than real time.
  this.timeout(240_000);
  const install = detectSphinx();
  let server: TestServer;
  const apps: LiveApp[] = [];
  before(async function () {
    if (!install || !espeakAvailable) return this.skip();
    server = await startTestServer({ VOICE_METRICS_PORT: '0' });
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  after(async () => server?.close());

  async function node(maxCalls: number): Promise<LiveApp> {
    const stt = createSphinx(install!, server.services.log, { maxCalls, decoders: 1 });
    const app = await startLiveApp({ ...server.services, stt }, {});
    apps.push(app);
    return app;
  }

  it('takes no recogniser for sessions that only send text', async () => {
    const app = await node(1);
    // More text-only sessions than the node has recognisers, by any count of them.
    const texts: LiveRun[] = [];
    for (let i = 0; i < 2 * os.availableParallelism() + 1; i++) {
      const run = await openLive(`${app.wsUrl}/voice/filter/stream?key=${server.key}`);
      send(run, { type: 'start' });
      await waitFor(run, 'session.started');
      transcript(run, 'Hello, who is this?');
      texts.push(run);
    }
    const call = await audioCall(app, server.key, callAudio('Please call the bank today about your credit card.'));
    await waitFor(call, 'transcript.line', 180_000);
    send(call, { type: 'stop' });
    await call.closed;
    expect(callerLines(call).join(' ')).to.match(/credit card/);
    expect(call.events.filter((e) => e.type === 'session.error')).to.deep.equal([]);
    for (const run of texts) {
      send(run, { type: 'stop' });
      await run.closed;
      expect(run.events.filter((e) => e.type === 'session.error')).to.deep.equal([]);
    }
  });

  it('tells the call beyond the limit (event, log, metric) and transcribes it once a recogniser frees', async () => {
    const app = await node(1);
    const refusedBefore = await metric(server, 'voice_stt_refused_total{entry="live"}');
    const first = await audioCall(app, server.key, callAudio('Please call the bank today about your credit card.'));
    await waitFor(first, 'transcript.line', 180_000);
    expect(await metric(server, 'voice_stt_calls')).to.equal(1);

    const second = await audioCall(
      app,
      server.key,
      callAudio('This is the internal revenue service. You owe five hundred dollars today.'),
    );
    const error = await waitFor(second, 'session.error', 60_000);
    expect(error.error).to.match(/all 1 speech recognisers on this node are busy/);
    expect(error.error).to.match(/transcribed as soon as one frees/);
    expect(error.text).to.match(/inbound track/);
    expect(await metric(server, 'voice_stt_refused_total{entry="live"}')).to.equal(refusedBefore + 1);
    const warned = server.logs.filter((l) => /every recogniser slot on this node is taken/.test(String(l.msg)));
    expect(warned.at(-1)).to.include({ level: 40, limit: 1, track: 'inbound' });
    expect(callerLines(second)).to.deep.equal([]);

    // The first call ends: its slot goes to the waiting call, whose held speech is transcribed.
    send(first, { type: 'stop' });
    await first.closed;
    await waitFor(second, 'transcript.line', 180_000);
    expect(callerLines(second).join(' ')).to.match(/revenue service|500 dollars/);
    expect(server.logs.some((l) => /a waiting call got a recogniser slot/.test(String(l.msg)))).to.equal(true);
    send(second, { type: 'stop' });
    const { code } = await second.closed;
    expect(code).to.equal(1000);
    expect(second.events.filter((e) => e.type === 'session.error')).to.have.length(1);
    expect(await metric(server, 'voice_stt_calls')).to.equal(0);
  });
});
