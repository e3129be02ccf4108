import { expect } from 'chai';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import WebSocket from 'ws';
import { openLive, send, transcript, waitFor, SCAM_CALL } from '../integration/helpers/live-client.js';
import { contentReply, startOpenAiServer, type LocalServer } from '../fixtures/llm-servers/openai.js';
import { startHttpsReceiver } from '../integration/helpers/https-receiver.js';
import { eventually, spawnNode, storedSessions, tempDataDir, testKey } from './helpers/node-process.js';

/**
 * SIGTERM during live calls, on a node in its own process: it takes no new session, ends every live one
 * properly (final analysis, `session.ended` on the socket, the record written), and exits 0 within the
 * drain bound.
 */
describe('reliability: SIGTERM during live calls', function () {
  this.timeout(60_000);

  it('ends every live session with its final analysis and record, refuses new ones, exits 0 within the drain', async () => {
    const key = testKey();
    const dataDir = tempDataDir();
    const node = await spawnNode({
      dataDir,
      env: { VOICE_BOOTSTRAP_KEYS: `${key}:100000`, VOICE_DRAIN_SECONDS: '10' },
    });
    const runs = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const run = await openLive(`${node.wsUrl}/voice/filter/stream?key=${key}`);
        send(run, { type: 'start', call_id: `drain-${i}`, from: '+12025550150' });
        await waitFor(run, 'session.started');
        for (const line of SCAM_CALL) transcript(run, line);
        return run;
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    node.child.kill('SIGTERM');

    // No new session once the signal is taken: the listening socket is closed.
    await new Promise((r) => setTimeout(r, 200));
    const late = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${node.wsUrl}/voice/filter/stream?key=${key}`);
      ws.on('open', () => resolve('open'));
      ws.on('unexpected-response', (_q, res) => resolve(`refused ${res.statusCode}`));
      ws.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code}`));
    });
    expect(late).to.not.equal('open');

    for (const run of runs) {
      const ended = await waitFor(run, 'session.ended', 15_000);
      expect((ended.verdict as Record<string, unknown>).level).to.equal('scam');
      expect((await run.closed).code).to.be.oneOf([1000, 1001]);
    }
    const { code } = await node.exited;
    const took = Date.now() - t0;
    expect(code).to.equal(0);
    expect(took).to.be.below(10_000 + 5_000);

    const rows = await storedSessions(dataDir);
    expect(rows).to.have.length(8);
    for (const row of rows) {
      expect(row.state).to.equal('ended');
      expect(row.doc.level).to.equal('scam');
    }
  });
});

/**
 * The orchestrator kills a node a fixed time after SIGTERM (Kubernetes 30 s, `docker stop` 10 s), whatever
 * its providers do. A remote model that answers after 20 s must not hold the calls' ends past that.
 */
describe('reliability: SIGTERM within the orchestrator’s grace, with a slow remote model', function () {
  this.timeout(90_000);
  let model: LocalServer;
  before(async () => {
    model = await startOpenAiServer([{ kind: 'delay', ms: 20_000, then: contentReply('{}') }]);
  });
  after(async () => {
    await model.close();
  });

  async function callsThenSigterm(env: Record<string, string>, calls = 3) {
    const key = testKey();
    const dataDir = tempDataDir();
    const node = await spawnNode({
      dataDir,
      env: {
        VOICE_BOOTSTRAP_KEYS: `${key}:100000`,
        VOICE_LLM: 'openai',
        VOICE_OPENAI_BASE_URL: model.url,
        VOICE_OPENAI_MODEL: 'slow',
        ...env,
      },
    });
    const runs = await Promise.all(
      Array.from({ length: calls }, async (_, i) => {
        const run = await openLive(`${node.wsUrl}/voice/filter/stream?key=${key}`);
        send(run, { type: 'start', call_id: `slow-${i}`, from: '+12025550150' });
        await waitFor(run, 'session.started');
        for (const line of SCAM_CALL) transcript(run, line);
        return run;
      }),
    );
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    node.child.kill('SIGTERM');
    const endedAfter = await Promise.all(
      runs.map(async (run) => {
        const ended = await waitFor(run, 'session.ended', 40_000);
        return { at: Date.now() - t0, ended, closed: await run.closed };
      }),
    );
    const exit = await node.exited;
    const exitedAfter = Date.now() - t0;
    return { runs, endedAfter, exit, exitedAfter, dataDir };
  }

  it('default settings: every call gets session.ended with the rules’ verdict within 25 s, the node exits inside 30 s', async () => {
    const { endedAfter, exit, exitedAfter, runs } = await callsThenSigterm({ VOICE_DRAIN_SECONDS: '' });
    for (const { at, ended, closed } of endedAfter) {
      expect(at).to.be.below(25_000);
      expect((ended.verdict as Record<string, unknown>).level).to.equal('scam');
      expect(closed.code).to.equal(1000);
    }
    expect(exit.code).to.equal(0);
    expect(exitedAfter).to.be.below(30_000);
    // The model's analysis was cut by the shutdown, not left to run its own 20 s.
    for (const run of runs) expect(JSON.stringify(run.events)).to.match(/node is shutting down: final analysis cut/);
  });

  it('a 10 s grace (VOICE_DRAIN_SECONDS=8): the model is cut short, every call ends and the node exits inside 10 s', async () => {
    const { endedAfter, exit, exitedAfter } = await callsThenSigterm({ VOICE_DRAIN_SECONDS: '8' });
    for (const { at, ended, closed } of endedAfter) {
      expect(at).to.be.below(8_000);
      expect((ended.verdict as Record<string, unknown>).level).to.equal('scam');
      expect(closed.code).to.equal(1000);
    }
    expect(exit.code).to.equal(0);
    expect(exitedAfter).to.be.below(10_000);
  });
});

/**
 * An outside run: a node that has taken a few hundred malformed requests (some left half-sent and open) and
 * posts to a webhook that never answers, then SIGTERM during three live calls. Every call must still see
 * `session.ended` and a close frame before the process is gone.
 */
describe('reliability: SIGTERM after malformed requests and a hanging webhook', function () {
  this.timeout(90_000);

  it('every live call gets session.ended and a close frame before the node exits', async () => {
    const receiver = await startHttpsReceiver();
    receiver.respond = () => undefined; // hangs
    const caFile = path.join(tempDataDir(), 'receiver-ca.pem');
    fs.writeFileSync(caFile, receiver.cert);
    const key = testKey();
    const node = await spawnNode({
      dataDir: tempDataDir(),
      env: {
        VOICE_BOOTSTRAP_KEYS: `${key}:100000`,
        VOICE_WEBHOOK_ALLOW_PRIVATE: 'true',
        NODE_EXTRA_CA_CERTS: caFile,
        VOICE_DRAIN_SECONDS: '',
      },
    });
    const held: net.Socket[] = [];
    try {
      await malformedRequests(node.port, held);
      const hooked = await openLive(`${node.wsUrl}/voice/filter/stream?key=${key}`);
      send(hooked, {
        type: 'start',
        call_id: 'hooked',
        from: '+12025550150',
        params: { webhook: `${receiver.url}/hook` },
      });
      await waitFor(hooked, 'session.started');
      transcript(hooked, SCAM_CALL[0]!);
      await eventually(async () => (receiver.posts.length > 0 ? true : undefined));
      send(hooked, { type: 'stop' });
      await waitFor(hooked, 'session.ended');
      // Its posts are abandoned after 5 s; the node carries on with nothing left of that session.
      await new Promise((r) => setTimeout(r, 5_500));

      const runs = await Promise.all(
        Array.from({ length: 3 }, async (_, i) => {
          const run = await openLive(`${node.wsUrl}/voice/filter/stream?key=${key}`);
          send(run, { type: 'start', call_id: `live-${i}`, from: '+12025550150' });
          await waitFor(run, 'session.started');
          for (const line of SCAM_CALL) transcript(run, line);
          // Like a phone client, it streams media until the socket closes.
          const media = Buffer.alloc(320);
          const streaming = setInterval(() => {
            if (run.ws.readyState === WebSocket.OPEN) run.ws.send(media);
            else clearInterval(streaming);
          }, 2);
          return run;
        }),
      );
      await new Promise((r) => setTimeout(r, 300));
      node.child.kill('SIGTERM');
      const outcomes = await Promise.all(runs.map((run) => run.closed.then((closed) => ({ run, closed }))));
      await node.exited;
      for (const { run, closed } of outcomes) {
        expect(run.events.map((e) => e.type)).to.include('session.ended');
        expect(closed.code).to.equal(1000);
      }
    } finally {
      for (const s of held) s.destroy();
      await node.kill();
      await receiver.close();
    }
  });
});

/** A few hundred bad requests: garbage lines, lying bodies left open, cut JSON, unknown paths. */
async function malformedRequests(port: number, held: net.Socket[]): Promise<void> {
  const raw = (text: string, keepOpen: boolean) =>
    new Promise<void>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.write(text);
        if (keepOpen) {
          held.push(s);
          resolve();
        } else setTimeout(() => (s.destroy(), resolve()), 20);
      });
      s.on('error', () => resolve());
      s.on('data', () => undefined);
    });
  const jobs: Array<Promise<unknown>> = [];
  for (let i = 0; i < 100; i++) jobs.push(raw(`\u0000GARBAGE ${i} \r\n\r\n`, false));
  for (let i = 0; i < 100; i++)
    jobs.push(
      raw(
        `POST /voice/scan HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"tr`,
        true,
      ),
    );
  for (let i = 0; i < 100; i++)
    jobs.push(
      fetch(`http://127.0.0.1:${port}/voice/scan`, {
        method: 'POST',
        body: '{"transcript": [',
        headers: { 'content-type': 'application/json' },
      })
        .then((r) => r.text())
        .catch(() => undefined),
    );
  await Promise.all(jobs);
}
