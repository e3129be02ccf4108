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
import { SCAM_CALL, openLive, send, transcript, waitFor, waitForCount } from '../integration/helpers/live-client.js';
import { startLiveApp, type LiveApp } from '../integration/helpers/live-node.js';
import { VirtualClock } from '../integration/helpers/virtual-clock.js';

/**
 * A model provider that answers 500 or garbage, in virtual time: the session reports session.error once,
 * keeps scoring on the rules (a scam call still reaches a scam verdict), and ends with its final event.
 * (A hung model is bounded by the provider's deadline: test/contract/llm-openai.test.ts, test/unit/llm.)
 */
describe('reliability: a failing model provider', function () {
  let server: TestServer;
  let model: LocalServer | undefined;
  let live: LiveApp | undefined;

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

  const cases: Array<[string, Reply]> = [
    ['answers 500', errorReply(500, 'internal server error')],
    ['returns garbage', contentReply('}}} not json {{{ \u0000 ')],
    ['returns JSON of the wrong shape', contentReply(JSON.stringify({ score: 'high', category: 42, tactics: 'all' }))],
  ];
  for (const [what, reply] of cases) {
    it(`${what}: session.error, the session goes on on the rules and ends with a scam verdict`, async () => {
      model = await startOpenAiServer([reply]);
      const config = loadConfig({ VOICE_LLM: 'openai', VOICE_OPENAI_BASE_URL: model.url, VOICE_OPENAI_MODEL: 'm' });
      const clock = new VirtualClock();
      live = await startLiveApp(
        { ...server.services, llm: createOpenAiProvider(openAiConnection(config)!) },
        { scheduler: clock.scheduler },
      );
      const run = await openLive(`${live.wsUrl}/voice/filter/stream?key=${server.key}`);
      send(run, { type: 'start', from: '+12025550199' });
      await waitFor(run, 'session.started');
      for (const line of SCAM_CALL) transcript(run, line);
      await waitForCount(run, 'transcript.line', SCAM_CALL.length);
      await clock.advanceTo(30_000);
      await waitFor(run, 'session.error');
      expect(model.requests.length).to.be.at.least(1);
      send(run, { type: 'stop' });
      const ended = await waitFor(run, 'session.ended', 15_000);
      expect((ended.verdict as Record<string, unknown>).level).to.equal('scam');
      expect((await run.closed).code).to.equal(1000);
      const verdicts = run.events.filter((e) => e.type === 'verdict');
      expect(verdicts.length).to.be.at.least(1);
    });
  }
});
