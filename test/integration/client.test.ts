import { expect } from 'chai';
import { PERSONAS } from '../../src/honeypot/personas.js';
import { VoiceApiError, VoiceClient, type SessionEvent } from '../../src/client/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { SCAM_CALL } from './helpers/live-client.js';

describe('client kit against a node', function () {
  this.timeout(30_000);
  // The default persona comes from the tuning variable: the honeypot test below checks it is used.
  const persona = PERSONAS[1]!;
  let server: TestServer;
  let client: VoiceClient;

  before(async () => {
    server = await startTestServer({ VOICE_HONEYPOT_PERSONA: persona.id });
    client = new VoiceClient({ url: server.url, key: server.key });
  });
  after(async () => server.close());

  it('reads the HTTP API with types, and turns errors into VoiceApiError with the status', async () => {
    const anonymous = new VoiceClient({ url: server.url });
    expect((await anonymous.capabilities()).prices.credit_usd).to.equal(0.0039);
    const denied = await anonymous.personas().catch((e: unknown) => e);
    expect(denied).to.be.instanceOf(VoiceApiError).with.property('status', 401);
    expect((denied as Error).message).to.equal('401: key: missing (X-Auth header)');
    expect((await client.personas()).map((p) => p.id)).to.include(persona.id);
    expect((await client.categories()).categories).to.have.length(34);
    const missing = await client.session('00000000-0000-0000-0000-000000000000').catch((e: unknown) => e);
    expect(missing).to.have.property('status', 404);
    const number = await client.number('+12025550100');
    expect(number).to.deep.equal({ number: '+12025550100', reported: false, complaints: 0, categories: [] });
  });

  it('rejects a refused socket upgrade with its status', async () => {
    const refused = await new VoiceClient({ url: server.url, key: 'not-a-key-at-all' })
      .openFilter()
      .catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(VoiceApiError).with.property('status', 401);
  });

  it('runs a honeypot call: persona audio through onAudio, events through the async iterator, then the stored session', async () => {
    const call = await client.openHoneypot({
      call_id: 'kit-1',
      from: '+12025550111',
      encoding: 'mulaw',
      sample_rate: 8000,
    });
    let audioBytes = 0;
    call.onAudio((frame) => (audioBytes += frame.length));
    const started = await call.waitFor('session.started');
    expect(started.persona?.id).to.equal(persona.id);
    await call.waitFor('transcript.line'); // the greeting
    // The greeting plays in real time: wait for its first 200 ms.
    for (let i = 0; i < 200 && audioBytes < 1600; i++) await new Promise((r) => setTimeout(r, 20));
    for (const line of SCAM_CALL.slice(0, 3)) call.sendText(line, { endOfTurn: true });
    call.sendDtmf('9');

    const seen: SessionEvent['type'][] = [];
    let stopped = false;
    for await (const e of call) {
      seen.push(e.type);
      if (!stopped && seen.filter((t) => t === 'transcript.line').length >= 4) {
        stopped = true;
        call.stop();
      }
    }
    expect(seen[0]).to.equal('session.started');
    expect(seen.at(-1)).to.equal('session.ended');
    expect((await call.closed).code).to.equal(1000);
    expect(audioBytes).to.be.at.least(1600); // 200 ms of 8 kHz mu-law

    const ended = call.events.at(-1) as Extract<SessionEvent, { type: 'session.ended' }>;
    expect(ended.intel.dtmf).to.equal('9');
    const detail = await client.session(started.session_id);
    expect(detail.session).to.include({
      id: started.session_id,
      kind: 'honeypot',
      call_id: 'kit-1',
      persona_id: persona.id,
    });
    expect((await client.sessions(5)).map((s) => s.id)).to.include(started.session_id);
  });
});
