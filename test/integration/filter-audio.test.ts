import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { createSphinx, detectSphinx } from '../../src/providers/stt/sphinx.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openLive, send, waitFor, waitForCount } from './helpers/live-client.js';
import { startLiveApp, type LiveApp } from './helpers/live-node.js';

/** Speech made on this machine: eSpeak NG → 16 kHz 16-bit mono PCM, as a caller's phone would send. */
function spoken(text: string): Buffer {
  const wav = execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '--stdout', text]);
  return execFileSync(
    'sox',
    ['-t', 'wav', '-', '-t', 'raw', '-r', '16000', '-e', 'signed', '-b', '16', '-c', '1', '-'],
    {
      input: wav,
    },
  );
}

describe('live filter audio branch (PocketSphinx)', function () {
  this.timeout(60_000);
  const install = detectSphinx();
  let server: TestServer;
  let live: LiveApp;
  before(async function () {
    if (!install) return this.skip();
    server = await startTestServer();
    live = await startLiveApp({ ...server.services, stt: createSphinx(install, server.services.log) }, {});
  });
  after(async () => {
    await live?.close();
    await server?.close();
  });

  it('turns caller audio into caller lines, in one transcript with the client text', async () => {
    const pcm = spoken('Hello. This is the internal revenue service. There is a warrant for your arrest.');
    const run = await openLive(`${live.wsUrl}/voice/filter/stream?key=${server.key}`);
    send(run, { type: 'start', sample_rate: 16000, encoding: 'pcm16' });
    await waitFor(run, 'session.started');
    send(run, { type: 'transcript', text: 'Who is calling?', track: 'outbound' });
    // 100 ms frames, faster than real time, then a second of silence that ends the utterance.
    const frame = 3200;
    const audio = Buffer.concat([pcm, Buffer.alloc(32000)]);
    for (let i = 0; i < audio.length; i += frame) run.ws.send(audio.subarray(i, i + frame));
    // The recogniser is slower than real time here: let it catch up before the stop.
    await waitForCount(run, 'transcript.line', 2, 40_000);
    send(run, { type: 'stop' });
    await run.closed;
    const ended = run.events.at(-1)!;
    expect(ended.type).to.equal('session.ended');
    const callerLines = run.events.filter((e) => e.type === 'transcript.line' && e.speaker === 'caller');
    expect(callerLines.length).to.be.greaterThan(0);
    // Word accuracy on synthetic speech is the recogniser's business; the graph must carry what it heard.
    for (const line of callerLines) expect((line.text as string).trim()).to.not.equal('');
    expect(ended.transcript as string).to.contain(`caller: ${callerLines[0]!.text as string}`);
    expect(ended.transcript as string).to.contain('callee: Who is calling?');
    expect(run.events.filter((e) => e.type === 'session.error')).to.deep.equal([]);
  });
});
