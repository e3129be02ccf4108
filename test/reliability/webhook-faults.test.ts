import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startHttpsReceiver, type HttpsReceiver } from '../integration/helpers/https-receiver.js';
import { ESCALATING_SCAM_CALL, openLive, send, transcript, type LiveRun } from '../integration/helpers/live-client.js';
import { startLiveApp, type LiveApp } from '../integration/helpers/live-node.js';

/**
 * Webhook receivers that hang, answer 500, reset the connection or answer after 6 s, all at once, next to a
 * session without a webhook: every socket gets its whole event stream and its session.ended on time.
 * (That each post is abandoned at 5 s, without retry, is tested in virtual time in test/unit/events.)
 */
describe('reliability: faulty webhook receivers', function () {
  this.timeout(30_000);
  let server: TestServer;
  let receiver: HttpsReceiver;
  let live: LiveApp;
  before(async () => {
    server = await startTestServer({ VOICE_WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver = await startHttpsReceiver();
    receiver.respond = (post, res) => {
      if (post.path.startsWith('/hang')) return; // never answers
      if (post.path.startsWith('/500')) return void res.writeHead(500).end('boom');
      // The connection is dropped mid-request (a TLS socket cannot send a bare RST).
      if (post.path.startsWith('/reset')) return void res.socket?.destroy();
      if (post.path.startsWith('/late')) return void setTimeout(() => res.writeHead(200).end('ok'), 6000).unref();
      res.writeHead(200).end('ok');
    };
    live = await startLiveApp(server.services, { webhookTls: { ca: receiver.cert } });
  });
  after(async () => {
    await live.close();
    await receiver.close();
    await server.close();
  });

  it('hang, 500, reset and a 6 s answer leave every socket and every other session unaffected', async () => {
    const t0 = Date.now();
    const faults = ['hang', '500', 'reset', 'late', null] as const;
    const runs: LiveRun[] = await Promise.all(
      faults.map((f) =>
        openLive(
          `${live.wsUrl}/voice/filter/stream?key=${server.key}` +
            (f ? `&webhook=${encodeURIComponent(`${receiver.url}/${f}`)}` : ''),
        ),
      ),
    );
    for (const run of runs) {
      send(run, { type: 'start', from: '+12025550170' });
      for (const line of ESCALATING_SCAM_CALL) transcript(run, line);
      send(run, { type: 'stop' });
    }
    const codes = await Promise.all(runs.map((r) => r.closed));
    expect(Date.now() - t0).to.be.below(4000);
    for (const [i, run] of runs.entries()) {
      expect(codes[i]!.code, String(faults[i])).to.equal(1000);
      const types = run.events.map((e) => e.type);
      expect(types[0], String(faults[i])).to.equal('session.started');
      expect(types.at(-1), String(faults[i])).to.equal('session.ended');
      expect(types.filter((t) => t === 'transcript.line')).to.have.length(ESCALATING_SCAM_CALL.length);
      expect(types).to.include('verdict');
    }
    // Every faulty receiver was tried (each saw at least the session.started post). Posts are not ordered
    // with the socket's events, so they may still be on their way when the sockets close: wait for them,
    // within the 5 s a post is given.
    const tried = (f: string) => receiver.posts.some((p) => p.path.startsWith(`/${f}`));
    const faulty = ['hang', '500', 'reset', 'late'];
    const until = Date.now() + 5000;
    while (!faulty.every(tried) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    for (const f of faulty) expect(tried(f), f).to.equal(true);
  });
});
