import { expect } from 'chai';
import WebSocket from 'ws';
import {
  alive,
  spawnNode,
  storedSessions,
  tempDataDir,
  testKey,
  waitNoLiveSessions,
  type NodeProcess,
} from '../reliability/helpers/node-process.js';
import { FUZZ_SEED, INVALID_UTF8, NASTY_STRINGS, Rng, anyJson, fuzzCases } from './gen.js';

/**
 * Generated bad frames on the filter socket of a node in its own process. What the spec asks:
 * a binary frame or a bad start closes the socket with no events; after a good start, junk text frames are
 * ignored, audio on a text-only node is one session.error, empty frames are ignored, and a stop always
 * brings session.ended; frames over the payload cap close the socket and the session still ends. After
 * the run the node answers, holds no live session, and no record is left open.
 */
describe('fuzz: live sockets (separate node process)', function () {
  this.timeout(120_000);
  const CONNECTIONS = fuzzCases(600) >> 1 || 1;
  const key = testKey();
  let node: NodeProcess;
  const outcomes = new Map<string, number>();
  let frames = 0;

  before(async () => {
    node = await spawnNode({ dataDir: tempDataDir(), env: { VOICE_BOOTSTRAP_KEYS: `${key}:100000000` } });
  });
  after(async () => {
    if (node && !(await alive(node))) console.log(`node died:\n${node.stderr().slice(-3000)}`);
    await node?.kill();
    if (process.env.FUZZ_REPORT)
      console.log(
        `    socket fuzz, seed ${FUZZ_SEED}: ${CONNECTIONS} connections, ${frames} frames; ${JSON.stringify(Object.fromEntries(outcomes))}`,
      );
  });

  type Out = { text: string } | { bytes: Buffer; binary: boolean };

  function badStart(rng: Rng): Out {
    const start: Record<string, unknown> = { type: 'start', from: '+12025550123', sample_rate: 8000 };
    switch (rng.int(0, 6)) {
      case 0:
        start[rng.pick(['call_id', 'from', 'to', 'sample_rate', 'encoding', 'params'])] = rng.pick([
          42,
          true,
          [],
          { a: 1 },
          7999,
          48001,
          8000.5,
          '8000',
          'opus',
          '12025550123',
          { webhook: 5 },
        ]);
        return { text: JSON.stringify(start) };
      case 1:
        return { text: JSON.stringify(start).slice(0, rng.int(1, 20)) };
      case 2:
        return { bytes: rng.pick(INVALID_UTF8), binary: false };
      case 3:
        return { bytes: rng.bytes(rng.int(1, 2000)), binary: true };
      case 4:
        return { text: JSON.stringify(anyJson(rng)) };
      case 5:
        return {
          text: JSON.stringify({
            type: 'start',
            params: { report: rng.pick(NASTY_STRINGS), webhook: rng.pick(NASTY_STRINGS) },
          }),
        };
      default:
        return { bytes: Buffer.alloc(0), binary: rng.chance(0.5) };
    }
  }

  function midFrame(rng: Rng): Out {
    switch (rng.int(0, 9)) {
      case 0:
        return { bytes: Buffer.alloc(0), binary: true };
      case 1:
        return { bytes: rng.bytes(rng.pick([1, 3, 159, 161, 321, 3199])), binary: true }; // odd sample counts
      case 2:
        return { bytes: rng.bytes(320), binary: true };
      case 3:
        return {
          text: JSON.stringify({ type: 'transcript', text: anyJson(rng), track: anyJson(rng), final: anyJson(rng) }),
        };
      case 4:
        return { text: JSON.stringify({ type: 'dtmf', digit: anyJson(rng) }) };
      case 5:
        return { text: JSON.stringify(anyJson(rng)) };
      case 6: // rare: it fails the whole socket, so it would hide the other cases
        return rng.chance(0.1) ? { bytes: rng.pick(INVALID_UTF8), binary: false } : { text: '' };
      case 7:
        return { text: rng.bytes(rng.int(0, 200)).toString('latin1') };
      case 8:
        return { text: JSON.stringify({ type: 'start', sample_rate: anyJson(rng) }) }; // a second start
      default:
        return { text: JSON.stringify({ type: 'transcript', text: rng.pick(NASTY_STRINGS) }) };
    }
  }

  interface Result {
    events: Array<Record<string, unknown>>;
    code: number;
  }

  async function connection(rng: Rng): Promise<{ kind: string; result: Result }> {
    const ws = new WebSocket(`${node.wsUrl}/voice/filter/stream?key=${key}`, { skipUTF8Validation: true });
    const events: Array<Record<string, unknown>> = [];
    ws.on('message', (data, isBinary) => {
      if (!isBinary) events.push(JSON.parse(data.toString()) as Record<string, unknown>);
    });
    ws.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('unexpected-response', (_q, res) => reject(new Error(`upgrade refused ${res.statusCode}`)));
    });
    let brokeProtocol = false;
    const put = (o: Out) => {
      frames++;
      // Invalid UTF-8 in a text frame is a WebSocket protocol error: the socket is failed at once (RFC 6455 8.1).
      if ('bytes' in o && !o.binary && INVALID_UTF8.includes(o.bytes)) brokeProtocol = true;
      if ('text' in o) ws.send(o.text);
      else ws.send(o.bytes, { binary: o.binary });
    };
    const shape = rng.int(0, 9);
    let kind: string;
    if (shape < 3) {
      kind = 'bad-start';
      put(badStart(rng));
      // A junk frame that is not JSON or not a start is ignored before the start; give up after a moment.
      const code = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 300))]);
      if (code === -1) {
        ws.send(JSON.stringify({ type: 'stop' }));
        ws.close();
        return { kind: 'bad-start-ignored', result: { events, code: await closed } };
      }
      return { kind, result: { events, code } };
    }
    put({
      text: JSON.stringify({
        type: 'start',
        call_id: `fz-${rng.int(0, 1e6)}`,
        from: '+12025550123',
        encoding: rng.pick(['pcm16', 'mulaw']),
      }),
    });
    const huge = shape === 3;
    for (let i = rng.int(1, 25); i > 0; i--) put(midFrame(rng));
    if (huge) {
      kind = 'oversized-frame';
      put({ bytes: Buffer.alloc(rng.pick([300 * 1024, 2 * 1024 * 1024]), 1), binary: true });
    } else if (shape === 4) {
      kind = 'closed-without-stop';
      ws.close();
    } else {
      kind = 'stopped';
      ws.send(JSON.stringify({ type: 'stop' }));
    }
    const code = await closed;
    return { kind: brokeProtocol ? 'invalid-utf8-text' : kind, result: { events, code } };
  }

  it(`${CONNECTIONS} connections of generated frames: handled as the spec says`, async () => {
    const gens = Array.from({ length: CONNECTIONS }, (_, i) => new Rng(FUZZ_SEED ^ (i * 2654435761)));
    for (let i = 0; i < gens.length; i += 10) {
      const batch = await Promise.all(gens.slice(i, i + 10).map((g) => connection(g)));
      for (const [j, { kind, result }] of batch.entries()) {
        const label = `connection ${i + j} (${kind}, seed ${FUZZ_SEED}): code ${result.code}, events ${result.events.map((e) => e.type).join(',')}`;
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
        for (const e of result.events) expect(e.type, label).to.be.a('string');
        if (kind === 'bad-start') {
          expect(result.events, label).to.deep.equal([]);
          expect(result.code, label).to.not.equal(1011);
        } else if (kind === 'stopped') {
          expect(result.events[0]?.type, label).to.equal('session.started');
          expect(result.events.at(-1)?.type, label).to.equal('session.ended');
          expect(result.code, label).to.equal(1000);
          expect(result.events.filter((e) => e.type === 'session.error').length, label).to.be.at.most(1);
        } else if (kind === 'invalid-utf8-text') {
          expect(result.code, label).to.be.oneOf([1007, 1006]);
        } else if (kind === 'oversized-frame') {
          expect(result.code, label).to.be.oneOf([1009, 1006, 1000]);
        }
      }
    }
  });

  it('never logs the key it was given in ?key=', () => {
    expect(node.stdout()).to.not.include(key);
    expect(node.stdout()).to.include('"msg"'); // it did log
  });

  it('the node is alive and answering, holds no live session, and leaves no record open', async () => {
    expect(await alive(node)).to.equal(true);
    expect(await waitNoLiveSessions(node, 30_000)).to.equal(0);
    const rows = await storedSessions(node.dataDir);
    expect(rows.length).to.be.greaterThan(0);
    for (const row of rows) {
      expect(row.state, JSON.stringify(row.doc)).to.equal('ended');
      expect(row.doc.ended_at).to.be.a('string');
    }
  });
});
