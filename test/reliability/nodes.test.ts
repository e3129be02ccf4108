import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { openLive, send, transcript, waitFor, SCAM_CALL, type LiveRun } from '../integration/helpers/live-client.js';
import {
  alive,
  balanceOf,
  eventually,
  spawnNode,
  storedSessions,
  tempDataDir,
  testKey,
  type NodeProcess,
} from './helpers/node-process.js';

/**
 * Three node processes on one embedded store (SQLite in WAL mode, one VOICE_DATA_DIR, distinct node ids and
 * ports), as a single-machine fleet runs. Sessions, credits and filed numbers are shared through the store;
 * one node's SIGKILL costs the others nothing, and its restart ends what it left open.
 */
const execFileAsync = promisify(execFile);

describe('reliability: three nodes on one store', function () {
  this.timeout(120_000);
  const dataDir = tempDataDir();
  const key = testKey('fleet');
  const tight = testKey('tight'); // 30 credits: ten first minutes of the filter, fleet-wide
  const nodes: NodeProcess[] = [];

  before(async () => {
    // One after the other: each creates the bootstrap keys only when absent.
    for (const id of ['n1', 'n2', 'n3'])
      nodes.push(
        await spawnNode({
          dataDir,
          nodeId: id,
          env: { VOICE_BOOTSTRAP_KEYS: `${key}:1000000,${tight}:30` },
        }),
      );
  });
  after(async () => {
    await Promise.all(nodes.map((n) => n.kill()));
  });

  const filter = (n: NodeProcess, k = key) => `${n.wsUrl}/voice/filter/stream?key=${k}`;
  const get = async (n: NodeProcess, p: string) => {
    const res = await fetch(`${n.url}${p}`, { headers: { 'x-auth': key } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('a session held on one node is readable from the others', async () => {
    const run = await openLive(filter(nodes[0]!));
    send(run, { type: 'start', call_id: 'fleet-1', from: '+12025550111' });
    transcript(run, SCAM_CALL[0]!);
    send(run, { type: 'stop' });
    await run.closed;
    const id = run.events[0]!.session_id as string;
    for (const n of nodes.slice(1)) {
      const r = await get(n, `/voice/sessions/${id}`);
      expect(r.status).to.equal(200);
      expect(r.body.session).to.include({ id, call_id: 'fleet-1' });
    }
  });

  it('credits debited across the nodes never overspend: 30 concurrent first minutes on 30 credits', async () => {
    const tries = Array.from({ length: 30 }, (_, i) =>
      openLive(filter(nodes[i % 3]!, tight)).then(
        (run) => ({ run }),
        (err: { status?: number }) => ({ refused: err.status }),
      ),
    );
    const results = await Promise.all(tries);
    // Upgrades are refused 402 once the balance is short; in a race the charge at the start decides, and a
    // session that could not be charged closes without session.started.
    const runs = results.flatMap((r) => ('run' in r ? [r.run] : []));
    for (const run of runs) send(run, { type: 'start', from: '+12025550112' });
    await new Promise((r) => setTimeout(r, 1500));
    const started = runs.filter((run) => run.events.some((e) => e.type === 'session.started'));
    for (const run of started) send(run, { type: 'stop' });
    await Promise.all(runs.map((run) => run.closed));
    const refused = results.filter((r) => 'refused' in r).map((r) => (r as { refused?: number }).refused);
    for (const s of refused) expect(s).to.equal(402);
    expect(started.length, `${started.length} started, ${refused.length} refused`).to.equal(10);
    expect(await balanceOf(dataDir, 'bootstrap-2')).to.equal(0);
  });

  it('a number filed on one node is visible on every node', async () => {
    const res = await fetch(`${nodes[1]!.url}/voice/scan`, {
      method: 'POST',
      headers: { 'x-auth': key, 'content-type': 'application/json' },
      body: JSON.stringify({ transcript: SCAM_CALL.join(' '), from: '+12025550113', report: true }),
    });
    expect(((await res.json()) as Record<string, unknown>).reported).to.equal(true);
    for (const n of nodes) {
      const r = await get(n, '/voice/numbers/%2B12025550113');
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ reported: true });
    }
  });

  it('a key revoked with `voice keys revoke` is refused on every node within seconds, with its last use listed', async () => {
    // Asynchronously: a blocked event loop would leave the client's pooled connections to go stale.
    const cli = async (args: string[]) =>
      (
        await execFileAsync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'keys', ...args], {
          env: { ...process.env, VOICE_DATA_DIR: dataDir, VOICE_LOG_LEVEL: 'silent' },
          encoding: 'utf8',
        })
      ).stdout;
    const created = (await cli(['create', '--credits', '100', '--label', 'doomed', '--expires', '30d'])).trim();
    const sessions = (n: NodeProcess, k: string) =>
      fetch(`${n.url}/voice/sessions`, { headers: { 'x-auth': k } }).then((r) => r.status);
    for (const n of nodes) expect(await sessions(n, created)).to.equal(200); // every node now remembers it

    const revoked = await cli(['revoke', created]);
    expect(revoked).to.match(/\trevoked$/m);
    const t0 = Date.now();
    for (const n of nodes)
      await eventually(async () => ((await sessions(n, created)) === 401 ? true : undefined), 15_000);
    expect(Date.now() - t0).to.be.below(15_000);

    const listed = (await cli(['list'])).split('\n').find((l) => l.includes('\tdoomed\t'))!;
    const [, , , , expires, revokedAt, lastUsed] = listed.split('\t');
    expect(Date.parse(expires!) - Date.now()).to.be.within(29 * 86_400_000, 30 * 86_400_000);
    expect(revokedAt).to.match(/^\d{4}-\d{2}-\d{2}T/);
    expect(lastUsed).to.match(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("one node's SIGKILL loses none of the others' sessions, and its restart ends what it left open", async () => {
    const open = async (n: NodeProcess, call: string): Promise<LiveRun> => {
      const run = await openLive(filter(n));
      send(run, { type: 'start', call_id: call, from: '+12025550114' });
      await waitFor(run, 'session.started');
      transcript(run, SCAM_CALL[0]!);
      return run;
    };
    const victim = nodes[0]!;
    const onVictim = await open(victim, 'killed-1');
    const others = [await open(nodes[1]!, 'other-1'), await open(nodes[2]!, 'other-2')];
    const killedId = onVictim.events[0]!.session_id as string;
    await new Promise((r) => setTimeout(r, 300)); // the open records are written
    await victim.kill();
    await onVictim.closed;

    // The others carry on: more words, a verdict-bearing end, the record stored.
    for (const run of others) {
      for (const line of SCAM_CALL.slice(1)) transcript(run, line);
      send(run, { type: 'stop' });
      await waitFor(run, 'session.ended');
      const id = run.events[0]!.session_id as string;
      const r = await get(nodes[1]!, `/voice/sessions/${id}`);
      expect(r.status).to.equal(200);
      expect((r.body.session as Record<string, unknown>).level).to.equal('scam');
    }
    // The killed node's session is still open in the store until its node comes back.
    const before = (await storedSessions(dataDir)).find((s) => s.doc.id === killedId);
    expect(before?.state).to.equal('open');

    const restarted = await spawnNode({ dataDir, nodeId: victim.nodeId, port: victim.port });
    nodes[0] = restarted;
    expect(await alive(restarted)).to.equal(true);
    const after = (await storedSessions(dataDir)).find((s) => s.doc.id === killedId);
    expect(after?.state).to.equal('ended');
    expect(after?.doc.call_id).to.equal('killed-1');
    expect(after?.doc.ended_at).to.be.a('string');
    const r = await get(nodes[2]!, `/voice/sessions/${killedId}`);
    expect(r.status).to.equal(200);
    // Every record in the store is whole: nothing else is left open.
    for (const row of await storedSessions(dataDir)) expect(row.state, JSON.stringify(row.doc)).to.equal('ended');
  });
});
