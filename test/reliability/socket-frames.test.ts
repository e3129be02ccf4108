import { expect } from 'chai';
import { authenticate } from '../../src/server/auth.js';
import { MAX_PAYLOAD } from '../../src/server/socket/conn.js';
import { openLive, send, waitFor, type LiveRun } from '../integration/helpers/live-client.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const START = { type: 'start', from: '+12025550123', sample_rate: 8000 };
const INVALID_UTF8 = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);

/**
 * Frames the socket cannot take: over the 256 KiB cap, or text that is not UTF-8. The client gets the
 * close code RFC 6455 names where the node can send one, a session that had started ends with
 * `session.ended`, and a session whose start the client never saw costs nothing.
 */
describe('reliability: socket frames over the cap or not UTF-8', function () {
  this.timeout(60_000);
  let s: TestServer;
  let keyId: string;
  before(async () => {
    s = await startTestServer();
    keyId = (await authenticate(s.services.store, s.key))!.id;
  });
  after(async () => s?.close());

  const url = () => `${s.wsUrl}/voice/filter/stream?key=${s.key}`;
  const balance = () => s.services.store.keys.balance(keyId);
  /** Waits until the balance reads `want` (a refund and a session's end land asynchronously). */
  async function balanceSettlesAt(want: number): Promise<number> {
    let got = await balance();
    for (let i = 0; i < 100 && got !== want; i++) {
      await new Promise((r) => setTimeout(r, 50));
      got = await balance();
    }
    return got;
  }
  const noLiveSessions = async () => {
    for (let i = 0; i < 200; i++) {
      const sessions = await s.services.store.sessions.listByKey(keyId, 200);
      if (sessions.every((x) => x.state !== 'open')) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  it('closes with 1009 and no events on a frame over the cap before the start', async () => {
    const run = await openLive(url());
    run.ws.send(Buffer.alloc(MAX_PAYLOAD + 1));
    expect(await run.closed).to.deep.equal({ code: 1009, reason: `message over ${MAX_PAYLOAD} bytes` });
    expect(run.events).to.deep.equal([]);
  });

  it('ends a started session with session.ended, then closes with 1009, on a frame over the cap', async () => {
    const run = await openLive(url());
    send(run, START);
    await waitFor(run, 'session.started');
    run.ws.send(Buffer.alloc(MAX_PAYLOAD + 1));
    const closed = await run.closed;
    expect(closed).to.deep.equal({ code: 1009, reason: `message over ${MAX_PAYLOAD} bytes` });
    expect(run.events.map((e) => e.type).at(-1)).to.equal('session.ended');
    const id = run.events[0]!.session_id as string;
    const stored = await s.services.store.sessions.get(id);
    expect(stored?.state).to.equal('ended');
  });

  for (const [label, frame, code] of [
    ['a frame over the cap', Buffer.alloc(MAX_PAYLOAD * 2), 1009],
    ['an 8 MB frame (past what uWS reads: it drops the connection)', Buffer.alloc(8 * 1024 * 1024), 1006],
  ] as const) {
    it(`charges nothing when ${label} follows the start before the client saw it`, async () => {
      await noLiveSessions();
      const before = await balance();
      const run = await openLive(url());
      send(run, START);
      run.ws.send(frame);
      const closed = await run.closed;
      expect(closed.code).to.equal(code);
      if (run.events.some((e) => e.type === 'session.started')) {
        // The session started in time after all: then it ended properly and its minute is due.
        expect(run.events.map((e) => e.type).at(-1)).to.equal('session.ended');
      } else {
        expect(run.events).to.deep.equal([]);
        await noLiveSessions();
        expect(await balanceSettlesAt(before)).to.equal(before);
      }
    });
  }

  it('text that is not UTF-8: uWS drops the connection itself (1006); nothing charged before the start was seen', async () => {
    await noLiveSessions();
    const before = await balance();
    const run: LiveRun = await openLive(url());
    send(run, START);
    run.ws.send(INVALID_UTF8, { binary: false });
    expect((await run.closed).code).to.equal(1006);
    if (!run.events.some((e) => e.type === 'session.started')) {
      await noLiveSessions();
      expect(await balanceSettlesAt(before)).to.equal(before);
    }
  });
});
