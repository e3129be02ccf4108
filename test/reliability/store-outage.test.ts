import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startFakeMongo, type FakeMongo } from '../fixtures/fake-mongo/server.js';
import { openLive, send, transcript, waitFor, SCAM_CALL } from '../integration/helpers/live-client.js';
import { cuttableLink, type Link } from './helpers/link.js';
import { eventually, spawnNode, tempDataDir, testKey, type NodeProcess } from './helpers/node-process.js';

/**
 * The store fails at session end (a MongoDB that resets every connection): the node keeps the final record
 * in its local journal, still answers for it, and writes it when the store is back. No session is lost.
 */
describe('reliability: store outage at session end', function () {
  this.timeout(90_000);
  let mongo: FakeMongo;
  let link: Link;
  let node: NodeProcess;
  const key = testKey();
  const dataDir = tempDataDir();

  before(async () => {
    mongo = await startFakeMongo();
    link = await cuttableLink(Number(new URL(mongo.url).port));
    node = await spawnNode({
      dataDir,
      nodeId: 'outage-node',
      env: {
        MONGODB_URL: `mongodb://127.0.0.1:${link.port}/voice?directConnection=true`,
        VOICE_BOOTSTRAP_KEYS: `${key}:100000`,
      },
    });
  });
  after(async () => {
    await node?.kill();
    link?.close();
    await mongo?.close();
  });

  it('keeps the final record in the journal while the store is down, and writes it once the store is back', async () => {
    const run = await openLive(`${node.wsUrl}/voice/filter/stream?key=${key}`);
    send(run, { type: 'start', call_id: 'outage-1', from: '+12025550160' });
    await waitFor(run, 'session.started');
    const id = run.events[0]!.session_id as string;
    for (const line of SCAM_CALL) transcript(run, line);
    await new Promise((r) => setTimeout(r, 300));

    link.down();
    send(run, { type: 'stop' });
    const ended = await waitFor(run, 'session.ended', 30_000);
    expect((ended.verdict as Record<string, unknown>).level).to.equal('scam');

    // The final record waits in the node's journal, on local disk.
    const journal = path.join(dataDir, 'journal-outage-node.jsonl');
    const waiting = await eventually(async () => {
      const text = fs.existsSync(journal) ? fs.readFileSync(journal, 'utf8') : '';
      return text.includes(id) && text.includes('"state":"ended"') ? text : undefined;
    }, 20_000);
    expect(waiting).to.include('outage-1');

    await link.up();
    // The replay loop writes it and empties the journal.
    await eventually(async () => (fs.readFileSync(journal, 'utf8').trim() === '' ? true : undefined), 30_000);
    const client = new MongoClient(mongo.url, { serverSelectionTimeoutMS: 2000 });
    try {
      const doc = await client
        .db('voice')
        .collection('sessions')
        .findOne({ _id: id as never });
      const alt = doc ?? (await client.db('voice').collection('sessions').findOne({ id }));
      expect(alt, 'stored session').to.not.equal(null);
      expect(alt).to.deep.include({ state: 'ended', call_id: 'outage-1' });
    } finally {
      await client.close();
    }
    const res = await fetch(`${node.url}/voice/sessions/${id}`, { headers: { 'x-auth': key } });
    expect(res.status).to.equal(200);
  });
});
