import { expect } from 'chai';
import WebSocket from 'ws';
import { openLive, send, transcript, waitFor, SCAM_CALL } from '../integration/helpers/live-client.js';
import { spawnNode, storedSessions, tempDataDir, testKey } from './helpers/node-process.js';

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
