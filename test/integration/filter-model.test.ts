import { expect } from 'chai';
import { loadConfig } from '../../src/config.js';
import { openAiConnection } from '../../src/providers/llm/index.js';
import { createOpenAiProvider } from '../../src/providers/llm/openai.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  contentReply,
  errorReply,
  startOpenAiServer,
  type LocalServer,
  type Reply,
} from '../fixtures/llm-servers/openai.js';
import { openLive, send, transcript, waitFor, waitForCount, type LiveRun } from './helpers/live-client.js';
import { startLiveApp, type LiveApp } from './helpers/live-node.js';
import { VirtualClock } from './helpers/virtual-clock.js';

/** Mildly odd but rule-clean caller lines: well over 120 characters together. */
const VAGUE = [
  'Hello, I am calling from the account services department about your recent statement.',
  'We need to go over a few items with you today to make sure everything is in order on your file.',
];

const MODEL_SAYS = {
  score: 0.72,
  category: 'Phishing',
  tactics: ['pii_harvest'],
  signals: ['"make sure everything is in order on your file"'],
  summary: 'The caller fishes for account details under a vague pretext.',
};

describe('live filter with a model (OpenAI-style server) in virtual time', function () {
  let server: TestServer;
  let model: LocalServer;
  let clock: VirtualClock;
  let live: LiveApp;

  async function session(replies: Reply[]): Promise<LiveRun> {
    model = await startOpenAiServer(replies);
    const config = loadConfig({
      VOICE_LLM: 'openai',
      VOICE_OPENAI_BASE_URL: model.url,
      VOICE_OPENAI_MODEL: 'local-test',
    });
    clock = new VirtualClock();
    live = await startLiveApp(
      { ...server.services, llm: createOpenAiProvider(openAiConnection(config)!) },
      { scheduler: clock.scheduler },
    );
    const run = await openLive(`${live.wsUrl}/voice/filter/stream?key=${server.key}`);
    send(run, { type: 'start' });
    await waitFor(run, 'session.started');
    return run;
  }

  before(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await live?.close();
    await model?.close();
  });
  after(async () => {
    await server.close();
  });

  it('scores with the model on the 30 s tick once 120 caller characters arrived, and sends its verdict', async () => {
    const run = await session([contentReply(JSON.stringify(MODEL_SAYS))]);
    for (const line of VAGUE) transcript(run, line);
    await waitForCount(run, 'transcript.line', VAGUE.length);
    await clock.advanceTo(29_999);
    expect(model.requests).to.have.length(0);
    expect(run.events.filter((e) => e.type === 'verdict')).to.deep.equal([]);

    await clock.advanceTo(30_000);
    const verdict = (await waitFor(run, 'verdict')).verdict as Record<string, unknown>;
    expect(model.requests).to.have.length(1);
    expect(verdict).to.include({ score: 0.72, level: 'likely_scam', category: 'Phishing', source: 'combined' });
    expect(verdict.summary).to.equal(MODEL_SAYS.summary);

    // No new caller words: the next tick does not call the model.
    await clock.advanceTo(60_000);
    expect(model.requests).to.have.length(1);

    send(run, { type: 'stop' });
    const ended = await waitFor(run, 'session.ended');
    expect((ended.verdict as Record<string, unknown>).source).to.equal('combined');
    await run.closed;
  });

  it('turns a model refusal into session.error and carries on', async () => {
    const run = await session([errorReply(429, 'Rate limit reached for requests')]);
    for (const line of VAGUE) transcript(run, line);
    await waitForCount(run, 'transcript.line', VAGUE.length);
    await clock.advanceTo(30_000);
    const error = await waitFor(run, 'session.error');
    expect(error).to.include({
      error: 'HTTP 429: Rate limit reached for requests',
      text: 'live model scoring failed; rule scoring continues',
    });
    transcript(run, 'Are you still there?');
    send(run, { type: 'stop' });
    await run.closed;
    const types = run.events.map((e) => e.type);
    expect(types.filter((t) => t === 'transcript.line')).to.have.length(3);
    expect(types.at(-1)).to.equal('session.ended');
  });
});
