import { expect } from 'chai';
import { openLive, send, transcript, waitFor, SCAM_CALL } from '../integration/helpers/live-client.js';
import {
  eventually,
  spawnNode,
  storedSessions,
  tempDataDir,
  testKey,
  type NodeProcess,
} from './helpers/node-process.js';

/**
 * Containers rename their node on every start, so a node killed mid-call may never come back to close what it
 * left open. Here a node with another id closes it, once the dead node's lease has run out, and not before.
 */
describe('reliability: a session orphaned by a node that never returns', function () {
  this.timeout(90_000);
  const LEASE_SECONDS = 3;
  const nodes: NodeProcess[] = [];
  after(async () => {
    await Promise.all(nodes.map((n) => n.kill()));
  });

  it('is ended, with what was recorded, by a node with another id within the lease', async () => {
    const dataDir = tempDataDir();
    const key = testKey('lease');
    const env = { VOICE_BOOTSTRAP_KEYS: `${key}:100000`, VOICE_SESSION_LEASE_SECONDS: String(LEASE_SECONDS) };
    const doomed = await spawnNode({ dataDir, nodeId: 'pod-7f9c', env });
    nodes.push(doomed);
    const survivor = await spawnNode({ dataDir, nodeId: 'pod-b21e', env });
    nodes.push(survivor);

    const run = await openLive(`${doomed.wsUrl}/voice/filter/stream?key=${key}`);
    send(run, { type: 'start', call_id: 'orphan-1', from: 'anonymous', to: '+12025550100' });
    const started = await waitFor(run, 'session.started');
    transcript(run, SCAM_CALL[0]!);
    const id = started.session_id as string;
    const row = async () => (await storedSessions(dataDir)).find((r) => r.doc.id === id);

    // A call longer than several leases: its node renews it, so the other node leaves it alone.
    await new Promise((r) => setTimeout(r, LEASE_SECONDS * 2000));
    expect((await row())?.state).to.equal('open');

    const t0 = Date.now();
    await doomed.kill();
    const ended = await eventually(async () => {
      const r = await row();
      return r?.state === 'ended' ? r : undefined;
    }, 20_000);
    const took = Date.now() - t0;
    // The last renewal was at most a third of a lease before the kill; a sweep comes every third of a lease.
    expect(took).to.be.below(LEASE_SECONDS * 1000 * (4 / 3) + 1500);
    expect(ended.node_id).to.equal('pod-7f9c');
    expect(ended.doc).to.include({ call_id: 'orphan-1', to: '+12025550100', state: 'ended' });
    expect(ended.doc.summary).to.match(/interrupted/);
    expect(ended.doc).to.not.have.property('lease_until');
    expect(survivor.stdout()).to.include('ended sessions whose node stopped renewing their lease');

    const res = await fetch(`${survivor.url}/voice/sessions/${id}`, { headers: { 'x-auth': key } });
    expect(res.status).to.equal(200);
    expect(((await res.json()) as { session: Record<string, unknown> }).session).to.include({
      id,
      call_id: 'orphan-1',
    });
  });
});
