import { expect } from 'chai';
import net from 'node:net';
import {
  alive,
  spawnNode,
  storedSessions,
  tempDataDir,
  testKey,
  waitNoLiveSessions,
  type NodeProcess,
} from '../reliability/helpers/node-process.js';
import { FUZZ_SEED, INVALID_UTF8, NASTY_STRINGS, Rng, anyJson, fuzzCases, wavHeader } from './gen.js';

/**
 * Generated bad input against every HTTP entry point of a node running in its own process. Every answer is
 * a JSON `{status:"error", message}` naming the field (400) or the cause (other 4xx), or a success for
 * inputs that happen to be valid; never a 5xx, a hang or a crash. Afterwards the node still answers, holds
 * no live session, and every record it stored is whole.
 */
describe('fuzz: HTTP entry points (separate node process)', function () {
  this.timeout(120_000);
  const CASES = fuzzCases(600);
  const key = testKey();
  let node: NodeProcess;
  const tally = new Map<string, { cases: number; statuses: Map<number, number> }>();

  before(async () => {
    node = await spawnNode({ dataDir: tempDataDir(), env: { VOICE_BOOTSTRAP_KEYS: `${key}:100000000` } });
  });
  after(async () => {
    if (node && !(await alive(node)))
      console.log(`node died:\n${node.stderr().slice(-3000)}\n${node.stdout().slice(-3000)}`);
    await node?.kill();
    const rows = [...tally].map(
      ([k, v]) => `${k}: ${v.cases} (${[...v.statuses].map(([s, n]) => `${s}×${n}`).join(' ')})`,
    );
    if (process.env.FUZZ_REPORT) console.log(`    http fuzz, seed ${FUZZ_SEED}:\n      ${rows.join('\n      ')}`);
  });

  interface Case {
    entry: string;
    method: string;
    path: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    /** Statuses this input may get besides the 4xx error shape (e.g. 200 when it happens to be valid). */
    ok?: readonly number[];
  }

  const SCAN_FIELDS = ['transcript', 'audio_base64', 'encoding', 'sample_rate', 'language', 'from', 'to', 'report'];
  const TEXT = 'This is the IRS, buy gift cards now or you will be arrested.';

  function scanJson(rng: Rng): Case {
    const c: Case = { entry: 'POST /voice/scan (json)', method: 'POST', path: '/voice/scan', ok: [200] };
    const body: Record<string, unknown> = { transcript: TEXT };
    const json = (o: unknown) => ({ ...c, headers: { 'content-type': 'application/json' }, body: JSON.stringify(o) });
    switch (rng.int(0, 11)) {
      case 0: // wrong type in one field
        body[rng.pick(SCAN_FIELDS)] = anyJson(rng);
        return json(body);
      case 1: // wrong types everywhere
        for (const f of SCAN_FIELDS) if (rng.chance(0.5)) body[f] = anyJson(rng);
        return json(body);
      case 2: // unknown fields
        for (let i = rng.int(1, 5); i > 0; i--) body[rng.pick(NASTY_STRINGS) || 'x'] = anyJson(rng);
        return json(body);
      case 3: {
        // malformed JSON: cut anywhere, or a random byte flipped
        const s = Buffer.from(JSON.stringify({ ...body, from: '+12025550123', report: true }));
        if (rng.chance(0.5)) return { ...json(body), body: s.subarray(0, rng.int(0, s.length - 1)) };
        const b = Buffer.from(s);
        b[rng.int(0, b.length - 1)] = rng.int(0, 255);
        return { ...json(body), body: b };
      }
      case 4: {
        // invalid UTF-8 inside a string
        const bad = rng.pick(INVALID_UTF8);
        const at = rng.pick(['transcript', 'language', 'from']);
        const s = JSON.stringify({ ...body, [at]: '@@' });
        const i = s.indexOf('@@');
        return { ...json(body), body: Buffer.concat([Buffer.from(s.slice(0, i)), bad, Buffer.from(s.slice(i + 2))]) };
      }
      case 5: // binary where JSON is expected
        return { ...json(body), body: rng.bytes(rng.int(0, 4000)) };
      case 6: // a JSON value that is not an object
        return json(anyJson(rng));
      case 7: // invalid base64
        return json({
          audio_base64: rng.pick([
            '@@@',
            '====',
            'abc',
            'a===b',
            '\u0000',
            'A'.repeat(4) + '*',
            ' ',
            rng.bytes(30).toString('latin1'),
          ]),
        });
      case 8: {
        // truncated or lying WAV headers
        const data = rng.int(0, 3000);
        const hdr = wavHeader({
          format: rng.pick([1, 1, 3, 6, 7, 0, 0xfffe, 85]),
          channels: rng.pick([1, 1, 2, 0, 9]),
          rate: rng.pick([8000, 16000, 0, 7999, 48001, 4294967295]),
          bits: rng.pick([16, 16, 8, 0, 24, 12, 64]),
          dataBytes: rng.pick([data, data * 1000, 0, 0xffffffff]),
          ...(rng.chance(0.3) ? { riffSize: rng.int(0, 0xffffffff) } : {}),
        });
        const wav = Buffer.concat([hdr, rng.bytes(data)]);
        const cut = rng.chance(0.4) ? wav.subarray(0, rng.int(0, wav.length)) : wav;
        return json({ audio_base64: cut.toString('base64'), encoding: 'wav' });
      }
      case 9: // raw audio with odd sample counts and bad rates
        return json({
          audio_base64: rng.bytes(rng.pick([0, 1, 3, 161, 1601])).toString('base64'),
          encoding: rng.pick(['pcm16', 'mulaw', 'opus', 'PCM16', '']),
          ...(rng.chance(0.7) ? { sample_rate: rng.pick([8000, 16000, 0, 7999, 48001, 8000.5, '8000']) } : {}),
        });
      case 10: // text and audio together, or neither
        return json(rng.chance(0.5) ? { transcript: TEXT, audio_base64: 'AAAA' } : { language: 'en-US' });
      default: // a wrong content type
        return {
          ...c,
          headers: { 'content-type': rng.pick(['text/plain', 'application/xml', 'multipart/form-data', '']) },
          body: JSON.stringify(body),
        };
    }
  }

  function scanMultipart(rng: Rng): Case {
    const boundary = `b${rng.int(0, 1e9)}`;
    const parts: Buffer[] = [];
    const field = (name: string, value: Buffer | string, filename?: string) =>
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
            (filename ? 'Content-Type: application/octet-stream\r\n' : '') +
            '\r\n',
        ),
        Buffer.isBuffer(value) ? value : Buffer.from(value),
        Buffer.from('\r\n'),
      );
    const shape = rng.int(0, 6);
    if (shape === 0)
      field('encoding', 'wav'); // the audio part missing altogether
    else if (shape === 1) {
      field('audio', rng.bytes(200), 'a.wav'); // the audio part twice
      field('audio', rng.bytes(200), 'b.wav');
    } else if (shape === 2) {
      field('audio', rng.bytes(100), 'a.wav'); // a file and base64 together
      field('audio_base64', 'AAAA');
    } else if (shape === 3) {
      field('transcript', TEXT); // duplicate text fields
      field('transcript', 'again');
    } else if (shape === 4) {
      field('transcript', rng.bytes(rng.int(1, 300))); // binary where text is expected
      field(rng.pick(['report', 'sample_rate', 'from']), rng.pick(NASTY_STRINGS));
    } else if (shape === 5) {
      field('audio', Buffer.concat([wavHeader({ dataBytes: 1 << 30 }), rng.bytes(rng.int(0, 500))]), 'lying.wav');
      field(rng.pick(SCAN_FIELDS), rng.pick(NASTY_STRINGS));
    } else field('audio', Buffer.alloc(0), 'empty.wav');
    let body = Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
    if (rng.chance(0.2)) body = body.subarray(0, rng.int(0, body.length)); // cut off mid-part
    const ct = rng.chance(0.1) ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}`;
    return {
      entry: 'POST /voice/scan (multipart)',
      method: 'POST',
      path: '/voice/scan',
      headers: { 'content-type': ct },
      body,
      ok: [200],
    };
  }

  /** Percent-encodes the string, or leaves it nearly raw (only what would break the URL itself encoded). */
  const enc = (raw: string, rng: Rng) => {
    const s = raw.replace(/\p{Cs}/gu, '\ufffd'); // a lone surrogate cannot be percent-encoded
    return rng.chance(0.7) ? encodeURIComponent(s) : s.replace(/[\s#?%\p{Cc}]/gu, (c) => encodeURIComponent(c));
  };

  function pathCase(rng: Rng): Case {
    const nasty = rng.pick(NASTY_STRINGS) || '%20';
    switch (rng.int(0, 6)) {
      case 0:
        return { entry: 'GET /voice/sessions/{id}', method: 'GET', path: `/voice/sessions/${enc(nasty, rng)}` };
      case 1:
        return {
          entry: 'GET /voice/sessions?limit',
          method: 'GET',
          path: `/voice/sessions?limit=${enc(nasty, rng)}`,
          ok: [200],
        };
      case 2:
        return {
          entry: 'GET /voice/numbers/{e164}',
          method: 'GET',
          path: `/voice/numbers/${enc(nasty, rng)}`,
          ok: [200],
        };
      case 3:
        return {
          entry: 'GET /voice/numbers?since&limit',
          method: 'GET',
          path: `/voice/numbers?reported=${enc(rng.pick(['true', nasty]), rng)}&since=${enc(nasty, rng)}&limit=${enc(rng.pick(NASTY_STRINGS), rng)}`,
          ok: [200],
        };
      case 4:
        return {
          entry: 'PUT /domains/{id}',
          method: 'PUT',
          path: `/domains/${enc(nasty, rng)}`,
          headers: { 'content-type': 'application/json' },
          body: rng.chance(0.8)
            ? JSON.stringify({ spam_action: anyJson(rng), [rng.pick(NASTY_STRINGS) || 'x']: anyJson(rng) })
            : rng.bytes(50),
          ok: [200],
        };
      case 5: {
        const vendor = rng.pick(['vendor-a', 'vendor-b']);
        const kind = rng.pick(['filter', 'honeypot']);
        return {
          entry: `POST /voice/${kind}/{vendor}-xml`,
          method: 'POST',
          path: `/voice/${kind}/${vendor}-xml?forward=${enc(nasty, rng)}&webhook=${enc(rng.pick(NASTY_STRINGS), rng)}&report=${enc(rng.pick(NASTY_STRINGS), rng)}&tracks=${enc(rng.pick(['both', nasty]), rng)}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: rng.chance(0.5)
            ? `From=${enc(nasty, rng)}&CallSid=${enc(rng.pick(NASTY_STRINGS), rng)}`
            : rng.bytes(100),
          ok: [200],
        };
      }
      default:
        return {
          entry: 'unknown paths',
          method: rng.pick(['GET', 'POST', 'DELETE', 'PATCH']),
          path: `/voice/${enc(nasty, rng)}/../sessions`,
          ok: [200],
        }; // clients may resolve the dots
    }
  }

  async function send(c: Case): Promise<{ status: number; body: string; type: string }> {
    const res = await fetch(node.url + c.path, {
      method: c.method,
      headers: { 'x-auth': key, ...c.headers },
      ...(c.body !== undefined ? { body: c.body } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.text(), type: res.headers.get('content-type') ?? '' };
  }

  function check(c: Case, r: { status: number; body: string; type: string }, label: string): void {
    const t = tally.get(c.entry) ?? { cases: 0, statuses: new Map<number, number>() };
    t.cases++;
    t.statuses.set(r.status, (t.statuses.get(r.status) ?? 0) + 1);
    tally.set(c.entry, t);
    if (r.status >= 200 && r.status < 300) {
      expect(c.ok ?? [], `${label}: unexpected success ${r.status} ${r.body.slice(0, 200)}`).to.include(r.status);
      return;
    }
    // 502 is the spec's answer when audio cannot be transcribed (this node runs without speech-to-text).
    if (r.status === 502 && c.path === '/voice/scan') expect(r.body, label).to.match(/transcription failed/);
    else expect(r.status, `${label}: ${r.body.slice(0, 300)}`).to.be.within(400, 499);
    const parsed = JSON.parse(r.body) as { status?: unknown; message?: unknown };
    expect(parsed.status, label).to.equal('error');
    expect(parsed.message, label).to.be.a('string').and.not.equal('');
    // A 400 names the field (or the body) before a colon: `sample_rate: must be …`.
    if (r.status === 400) expect(parsed.message, label).to.match(/^[^\n]*?: \S/);
  }

  async function run(gen: (rng: Rng) => Case, n: number, salt: number): Promise<number> {
    const rng = new Rng(FUZZ_SEED ^ salt);
    let successes = 0;
    const cases = Array.from({ length: n }, () => gen(rng));
    for (let i = 0; i < cases.length; i += 8) {
      await Promise.all(
        cases.slice(i, i + 8).map(async (c, j) => {
          const r = await send(c);
          check(c, r, `case ${i + j} (${c.entry}, seed ${FUZZ_SEED}, ${c.method} ${c.path.slice(0, 120)})`);
          if (r.status === 200 && c.path === '/voice/scan') successes++;
        }),
      );
    }
    return successes;
  }

  let scans = 0;

  it(`scan, JSON bodies: ${CASES} generated cases`, async () => {
    scans += await run(scanJson, CASES, 1);
  });

  it(`scan, multipart bodies: ${Math.ceil(CASES / 4)} generated cases`, async () => {
    scans += await run(scanMultipart, Math.ceil(CASES / 4), 2);
  });

  it(`ids, query values and paths: ${CASES} generated cases`, async () => {
    await run(pathCase, CASES, 3);
  });

  /**
   * Sends an oversized body over a raw connection: the node may answer 413 and close while the body is still
   * being written, so a write error is expected; the answer is whatever arrived before the close.
   */
  function oversized(method: string, p: string, size: number): Promise<{ status: number; body: string }> {
    return new Promise((resolve) => {
      const sock = net.connect(node.port, '127.0.0.1');
      let got = '';
      sock.on('data', (c: Buffer) => (got += c.toString('latin1')));
      sock.on('error', () => undefined);
      sock.on('close', () => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0);
        const head = got.indexOf('\r\n\r\n');
        let body = head >= 0 ? got.slice(head + 4) : '';
        if (/transfer-encoding: chunked/i.test(got.slice(0, head)))
          body = body.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n/gi, '');
        resolve({ status, body: body.trim() });
      });
      sock.write(
        `${method} ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Auth: ${key}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${size}\r\nConnection: close\r\n\r\n`,
      );
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < size && !sock.destroyed) {
          const n = Math.min(chunk.length, size - sent);
          sent += n;
          if (!sock.write(chunk.subarray(0, n))) return void sock.once('drain', pump);
        }
      };
      // A node that judges by Content-Length answers before the body: then nothing more is sent, so the
      // answer is not lost to a reset of unread bytes. Otherwise the body follows.
      setTimeout(() => {
        if (!got) pump();
      }, 300);
      setTimeout(() => sock.destroy(), 20_000).unref();
    });
  }

  it('bodies over the caps: 413 on scan above 25 MB and on other routes above 64 KiB', async () => {
    const big = await oversized('POST', '/voice/scan', 26 * 1024 * 1024);
    expect(big.status).to.equal(413);
    expect(JSON.parse(big.body)).to.include({ status: 'error' });
    const put = await oversized('PUT', '/domains/example.com', 70 * 1024);
    expect(put.status).to.equal(413);
    expect(JSON.parse(put.body)).to.include({ status: 'error' });
  });

  /**
   * uWebSockets.js (20.30, the build on npm) rejects these in its own parser, before any handler runs, and
   * never writes a status line, so the node cannot answer 400 or 431 (uWebSockets 20.4x writes those
   * itself). What a client gets is pinned here: no bytes, then a clean close (no reset): at once for a
   * header flood past uWS's 50 headers, after uWS's 10 s HTTP idle timeout for a request line it cannot
   * parse. The node serves other requests meanwhile.
   */
  it('a garbage request line or ~500 headers: no answer, then a clean close within the idle timeout', async () => {
    const many = Array.from({ length: 500 }, (_, i) => `X-H${i}: v\r\n`).join('');
    const inputs = [
      'GARBAGE\r\n\r\n',
      '\u0000\u0001\u0002 hello world\r\nfoo\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      `GET /voice/capabilities HTTP/1.1\r\nHost: x\r\n${many}\r\n`,
    ];
    const results = inputs.map(
      (input) =>
        new Promise<{ data: string; error?: string }>((resolve) => {
          const sock = net.connect(node.port, '127.0.0.1', () => sock.write(input));
          let data = '';
          let error: string | undefined;
          const timer = setTimeout(() => {
            error = 'no close within 20 s';
            sock.destroy();
          }, 20_000);
          sock.on('data', (d: Buffer) => (data += d.toString('latin1')));
          sock.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
          sock.on('close', () => {
            clearTimeout(timer);
            resolve({ data, error });
          });
        }),
    );
    expect(await alive(node)).to.equal(true);
    const got = await Promise.all(results);
    expect(got).to.deep.equal(inputs.map(() => ({ data: '', error: undefined })));
  });

  it('never logs the X-Auth key', () => {
    expect(node.stdout()).to.not.include(key);
    expect(node.stdout()).to.include('"path":"/voice/scan"'); // it did log the requests
  });

  it('the node is alive and answering, holds no live session, and every stored record is whole', async () => {
    expect(await alive(node)).to.equal(true);
    expect(await waitNoLiveSessions(node)).to.equal(0);
    const res = await fetch(`${node.url}/voice/sessions?limit=200`, { headers: { 'x-auth': key } });
    const body = (await res.json()) as { sessions: Array<Record<string, unknown>> };
    expect(body.sessions.length).to.equal(Math.min(200, scans));
    for (const s of body.sessions) {
      expect(s, JSON.stringify(s)).to.include({ kind: 'scan' });
      expect(s.id).to.be.a('string');
      expect(s.started_at).to.be.a('string');
      expect(s.ended_at).to.be.a('string');
      expect(s.level).to.be.a('string');
    }
    // In the store itself: every row parses, none is left open, none lacks its verdict.
    for (const row of await storedSessions(node.dataDir)) {
      expect(row.state).to.equal('ended');
      expect(row.doc.score, JSON.stringify(row.doc)).to.be.a('number');
      expect(row.doc.ended_at).to.be.a('string');
    }
  });
});
