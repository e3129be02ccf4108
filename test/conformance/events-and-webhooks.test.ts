import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startHttpsReceiver, type HttpsReceiver } from '../integration/helpers/https-receiver.js';
import { api, checkVerdict, open, RFC3339, say, send, waitFor, type Json } from './helpers.js';
import { startNodeProcess, type NodeProcess } from './node-process.js';

const KEY = 'conformance_webhook_key_0123456789';
const SCAM_LINES = [
  'This is officer Brooks from the Social Security Administration, your number has been suspended.',
  'A warrant will be issued for your arrest today unless you pay the fine with Target gift cards.',
  'Do not tell anyone about this call. Call me back at 888 555 0199.',
];

describe('conformance: events and webhooks (node as a process)', function () {
  this.timeout(60_000);
  let receiver: HttpsReceiver;
  let node: NodeProcess;
  let caFile: string;
  before(async () => {
    receiver = await startHttpsReceiver();
    caFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'conf-ca-')), 'ca.pem');
    fs.writeFileSync(caFile, receiver.cert);
    node = await startNodeProcess({
      NODE_EXTRA_CA_CERTS: caFile,
      VOICE_WEBHOOK_ALLOW_PRIVATE: 'true',
      VOICE_BOOTSTRAP_KEYS: `${KEY}:100000`,
    });
  });
  after(async () => {
    await node?.close();
    await receiver?.close();
  });

  async function scamCall(q: string, start: Json = {}) {
    const s = open(`${node.wsUrl}/voice/filter/stream?key=${KEY}${q}`);
    await s.opened;
    send(s, { type: 'start', call_id: 'wh-1', from: '+12025550160', to: '+12025550161', ...start });
    for (const l of SCAM_LINES) say(s, l);
    send(s, { type: 'stop' });
    await s.closed;
    return s;
  }

  async function postsOf(sessionId: string, atLeast: number): Promise<HttpsReceiver['posts']> {
    for (let i = 0; i < 200; i++) {
      const got = receiver.posts.filter((p) => p.body.session_id === sessionId);
      if (got.length >= atLeast && got.some((p) => p.body.type === 'session.ended')) return got;
      await new Promise((r) => setTimeout(r, 25));
    }
    return receiver.posts.filter((p) => p.body.session_id === sessionId);
  }

  it('posts every event except transcript.line, same shape as on the socket, signed with the key', async () => {
    const s = await scamCall(`&webhook=${encodeURIComponent(`${receiver.url}/hook`)}`);
    const id = s.events[0]!.session_id as string;
    const socketTypes = s.events.map((e) => e.type).filter((t) => t !== 'transcript.line');
    const posts = await postsOf(id, socketTypes.length);
    expect(posts.map((p) => p.body.type).sort()).to.deep.equal([...socketTypes].sort());
    for (const p of posts) {
      expect(p.path).to.equal('/hook');
      expect(p.headers['content-type']).to.equal('application/json');
      expect(p.headers['x-voice-event']).to.equal(p.body.type);
      const sig = createHmac('sha256', KEY).update(p.raw).digest('hex');
      expect(p.headers['x-voice-signature']).to.equal(`sha256=${sig}`);
      expect(p.body).to.include({ kind: 'filter', call_id: 'wh-1', from: '+12025550160', to: '+12025550161' });
      expect(p.body.at).to.match(RFC3339);
      const same = s.events.find((e) => e.type === p.body.type && e.at === p.body.at);
      expect(p.body, 'webhook body equals the socket event').to.deep.equal(same);
    }
    const verdictPost = posts.find((p) => p.body.type === 'verdict');
    expect(verdictPost, 'verdict events go to the webhook').to.not.equal(undefined);
    checkVerdict(verdictPost!.body.verdict);
  });

  it('params.webhook wins over the URL webhook', async () => {
    const s = await scamCall(`&webhook=${encodeURIComponent(`${receiver.url}/url-option`)}`, {
      params: { webhook: `${receiver.url}/param-option` },
    });
    const posts = await postsOf(s.events[0]!.session_id as string, 2);
    expect(posts.length).to.be.greaterThan(0);
    for (const p of posts) expect(p.path).to.equal('/param-option');
  });

  it('an HTTP webhook URL is ignored (no post, the call runs normally)', async () => {
    const before = receiver.posts.length;
    const plain = receiver.url.replace('https:', 'http:');
    const s = await scamCall(`&webhook=${encodeURIComponent(`${plain}/plain`)}`);
    expect(s.events.at(-1)!.type).to.equal('session.ended');
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.posts.slice(before).filter((p) => p.path === '/plain')).to.have.length(0);
  });

  it('the sessions endpoint recovers the session (x-auth header), and 401 for a wrong key', async () => {
    const s = await scamCall('');
    const id = s.events[0]!.session_id as string;
    const ok = await api(node.url, 'GET', `/sessions/${id}`, { headers: { 'x-auth': KEY } });
    expect(ok.status).to.equal(200);
    const wrong = await api(node.url, 'GET', `/sessions/${id}`, { headers: { 'x-auth': 'wrong' } });
    expect(wrong.status).to.equal(401);
    expect(wrong.body.status).to.equal('error');
  });

  it('the socket carries transcript.line events; session.started is first and session.ended last', async () => {
    const s = await scamCall('');
    await waitFor(s, 'session.ended');
    expect(s.events[0]!.type).to.equal('session.started');
    expect(s.events.at(-1)!.type).to.equal('session.ended');
    expect(s.events.filter((e) => e.type === 'transcript.line')).to.have.length(SCAM_LINES.length);
  });
});
