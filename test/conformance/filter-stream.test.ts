import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  api,
  checkIntel,
  checkVerdict,
  open,
  RFC3339,
  say,
  send,
  upgradeStatus,
  UUID,
  waitFor,
  type Json,
  type Socket,
} from './helpers.js';

const SCAM_LINES = [
  'Hello, this is officer Daniel Brooks from the Social Security Administration.',
  'Your social security number has been suspended due to suspicious activity.',
  'To avoid arrest you must verify your social security number with me now.',
  'You need to buy Target gift cards today and read me the numbers. Do not tell your bank.',
  'Call me back at 888 555 0199 if we are disconnected.',
];
const CLEAN_LINES = [
  'Hi, this is Sarah from Dr. Patel office.',
  'I am calling to confirm your appointment tomorrow at three in the afternoon.',
  'Please call the office if you need to reschedule. Have a nice day.',
];

describe('conformance: WebSocket /filter/stream', function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());
  const url = (q = '') => `${server.wsUrl}/voice/filter/stream?key=${server.key}${q}`;

  async function call(lines: string[], q = '', start: Json = {}): Promise<Socket> {
    const s = open(url(q));
    await s.opened;
    send(s, { type: 'start', call_id: 'c-1', from: '+12025550123', to: '+12025550999', ...start });
    for (const l of lines) say(s, l);
    send(s, { type: 'stop' });
    await s.closed;
    return s;
  }

  it('upgrade: 401 without a key or with a wrong key; X-Auth header or key query accepted', async () => {
    expect(await upgradeStatus(`${server.wsUrl}/voice/filter/stream`)).to.equal(401);
    expect(await upgradeStatus(`${server.wsUrl}/voice/filter/stream?key=wrong`)).to.equal(401);
    expect(await upgradeStatus(`${server.wsUrl}/voice/filter/stream`, { 'x-auth': server.key })).to.equal(101);
    expect(await upgradeStatus(url())).to.equal(101);
  });

  it('upgrade: 503 when live_filter is off', async () => {
    const off = await startTestServer({ VOICE_FEATURES: 'scan,honeypot' });
    try {
      expect(await upgradeStatus(`${off.wsUrl}/voice/filter/stream?key=${off.key}`)).to.equal(503);
    } finally {
      await off.close();
    }
  });

  it('upgrade: 503 when the node is full', async () => {
    const small = await startTestServer({ VOICE_MAX_SESSIONS: '1' });
    try {
      const first = open(`${small.wsUrl}/voice/filter/stream?key=${small.key}`);
      await first.opened;
      send(first, { type: 'start' });
      await waitFor(first, 'session.started');
      expect(await upgradeStatus(`${small.wsUrl}/voice/filter/stream?key=${small.key}`)).to.equal(503);
      send(first, { type: 'stop' });
      await first.closed;
    } finally {
      await small.close();
    }
  });

  it('session.started then transcript lines, then session.ended, then the socket is closed', async () => {
    const s = await call(SCAM_LINES);
    const types = s.events.map((e) => e.type);
    expect(types[0]).to.equal('session.started');
    expect(types.at(-1)).to.equal('session.ended');
    expect(types.filter((t) => t === 'transcript.line')).to.have.length(SCAM_LINES.length);
    expect(s.binary, 'the filter never sends binary frames').to.have.length(0);
  });

  it('every event carries type, session_id (UUID), kind filter, call_id, from, to and an RFC 3339 at', async () => {
    const s = await call(SCAM_LINES);
    const id = s.events[0]!.session_id;
    for (const e of s.events) {
      expect(e.type).to.be.a('string');
      expect(e.session_id).to.equal(id).and.match(UUID);
      expect(e).to.include({ kind: 'filter', call_id: 'c-1', from: '+12025550123', to: '+12025550999' });
      expect(e.at).to.be.a('string').and.match(RFC3339);
    }
  });

  it('each event type has exactly the common fields plus its own extra fields', async () => {
    const s = await call(SCAM_LINES);
    const common = ['type', 'session_id', 'kind', 'call_id', 'from', 'to', 'at'];
    const extra: Record<string, string[]> = {
      'session.started': [],
      'transcript.line': ['speaker', 'text'],
      verdict: ['verdict'],
      'session.ended': ['verdict', 'intel', 'transcript', 'duration_seconds', 'reported', 'reported_numbers'],
    };
    for (const e of s.events) {
      const want = extra[e.type as string];
      expect(want, `known event type ${e.type as string}`).to.not.equal(undefined);
      expect(Object.keys(e).sort(), e.type as string).to.deep.equal([...common, ...want!].sort());
    }
  });

  it('transcript.line carries speaker and text; outbound is labelled callee', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start' });
    say(s, 'Hello there.');
    say(s, 'Who is this?', { track: 'outbound' });
    send(s, { type: 'stop' });
    await s.closed;
    const lines = s.events.filter((e) => e.type === 'transcript.line');
    expect(lines[0]).to.include({ speaker: 'caller', text: 'Hello there.' });
    expect(lines[1]).to.include({ speaker: 'callee', text: 'Who is this?' });
    const ended = s.events.at(-1)!;
    expect(ended.transcript).to.equal('caller: Hello there.\ncallee: Who is this?');
  });

  it('session.ended: verdict, intel, transcript, duration_seconds, reported, reported_numbers', async () => {
    const s = await call(SCAM_LINES);
    const ended = s.events.at(-1)!;
    for (const k of ['verdict', 'intel', 'transcript', 'duration_seconds', 'reported', 'reported_numbers'])
      expect(ended, k).to.have.property(k);
    const v = checkVerdict(ended.verdict);
    expect(v.level).to.equal('scam');
    checkIntel(ended.intel);
    expect(Number.isInteger(ended.duration_seconds)).to.equal(true);
    expect(ended.reported).to.equal(false); // report defaults to false on the filter
    expect(ended.reported_numbers).to.equal(0);
    expect(ended.transcript).to.equal(SCAM_LINES.map((l) => `caller: ${l}`).join('\n'));
  });

  it('interim transcripts (final:false) are neither scored nor stored; empty text is ignored', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start' });
    for (const l of SCAM_LINES) say(s, l, { final: false });
    say(s, '');
    say(s, CLEAN_LINES[1]!);
    send(s, { type: 'stop' });
    await s.closed;
    expect(s.events.filter((e) => e.type === 'verdict')).to.have.length(0);
    const lines = s.events.filter((e) => e.type === 'transcript.line');
    expect(lines.map((l) => l.text)).to.deep.equal([CLEAN_LINES[1]]);
    const ended = s.events.at(-1)!;
    expect(ended.transcript).to.equal(`caller: ${CLEAN_LINES[1]!}`);
    expect((ended.verdict as Json).level).to.equal('clean');
  });

  it('a final that is not a JSON boolean ("false", 0) makes the transcript message ignored: not shown, scored or stored', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start' });
    for (const l of SCAM_LINES) say(s, l, { final: 'false' });
    say(s, SCAM_LINES[0]!, { final: 0 });
    say(s, CLEAN_LINES[1]!, { final: true });
    send(s, { type: 'stop' });
    await s.closed;
    expect(s.events.filter((e) => e.type === 'verdict')).to.have.length(0);
    expect(s.events.filter((e) => e.type === 'transcript.line').map((l) => l.text)).to.deep.equal([CLEAN_LINES[1]]);
    expect(s.events.at(-1)!.transcript).to.equal(`caller: ${CLEAN_LINES[1]!}`);
  });

  it('dtmf digits are collected in order into intel.dtmf (a string)', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start' });
    for (const d of ['1', '2', '#', '*', '9']) send(s, { type: 'dtmf', digit: d });
    send(s, { type: 'stop' });
    await s.closed;
    const intel = checkIntel(s.events.at(-1)!.intel);
    expect(intel.dtmf).to.equal('12#*9');
  });

  it('unknown text frames are ignored', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start' });
    send(s, { type: 'hello', x: 1 });
    send(s, 'not json at all');
    send(s, [1, 2]);
    say(s, 'Hello.');
    send(s, { type: 'stop' });
    await s.closed;
    expect(s.events.map((e) => e.type)).to.deep.equal(['session.started', 'transcript.line', 'session.ended']);
  });

  it('closing the socket has the same effect as stop: the session is ended and stored', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start', call_id: 'closed-by-client' });
    const started = await waitFor(s, 'session.started');
    say(s, 'Hello.');
    await waitFor(s, 'transcript.line');
    s.ws.close();
    await s.closed;
    const id = started.session_id as string;
    for (let i = 0; i < 100; i++) {
      const r = await api(server.url, 'GET', `/sessions/${id}`, { key: server.key });
      if (r.status === 200) {
        expect((r.body.session as Json).call_id).to.equal('closed-by-client');
        return;
      }
      await new Promise((res) => setTimeout(res, 50));
    }
    expect.fail('session was not stored after the client closed');
  });

  describe('closed with no events', function () {
    async function noEvents(start: unknown, first?: Buffer): Promise<void> {
      const s = open(url());
      await s.opened;
      if (first) s.ws.send(first);
      else send(s, start);
      const { code } = await s.closed;
      expect(s.events, JSON.stringify(s.events)).to.have.length(0);
      expect(code).to.be.a('number');
    }
    it('a binary frame before the start message', () => noEvents(null, Buffer.alloc(320)));
    it('unsupported encoding', () => noEvents({ type: 'start', encoding: 'opus' }));
    it('sample_rate below 8000', () => noEvents({ type: 'start', sample_rate: 7999 }));
    it('sample_rate above 48000', () => noEvents({ type: 'start', sample_rate: 48001 }));
    it('sample_rate not an integer', () => noEvents({ type: 'start', sample_rate: 8000.5 }));
  });

  it('start accepts the edges 8000 and 48000 Hz and both encodings', async () => {
    for (const start of [
      { sample_rate: 8000, encoding: 'pcm16' },
      { sample_rate: 48000, encoding: 'mulaw' },
    ]) {
      const s = open(url());
      await s.opened;
      send(s, { type: 'start', ...start });
      await waitFor(s, 'session.started');
      s.ws.send(Buffer.alloc(0)); // empty binary frames are ignored
      send(s, { type: 'stop' });
      await s.closed;
      expect(s.events.at(-1)!.type).to.equal('session.ended');
    }
  });

  it('params values must be strings (a non-string params value refuses the start)', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start', params: { report: true } });
    await s.closed;
    expect(s.events).to.have.length(0);
  });

  it('report=true (URL) files the caller and the callback number when the final level is scam', async () => {
    const s = await call(SCAM_LINES, '&report=true', { from: '+12025550150' });
    const ended = s.events.at(-1)!;
    expect((ended.verdict as Json).level).to.equal('scam');
    expect(ended).to.include({ reported: true, reported_numbers: 2 });
  });

  it('params.report=false wins over the URL report=true', async () => {
    const s = await call(SCAM_LINES, '&report=true', { from: '+12025550151', params: { report: 'false' } });
    expect(s.events.at(-1)).to.include({ reported: false, reported_numbers: 0 });
  });

  it('without from, report=true still files the callback numbers', async () => {
    const s = open(url('&report=true'));
    await s.opened;
    send(s, { type: 'start' });
    for (const l of SCAM_LINES) say(s, l);
    send(s, { type: 'stop' });
    await s.closed;
    expect(s.events.at(-1)).to.include({ reported: true, reported_numbers: 1 });
  });

  it('a from that is not E.164 does not refuse the start; the session runs and only callback numbers are filed', async () => {
    // Spec: the socket closes with no events only for no start, binary before start, or a bad encoding/sample_rate;
    // filing rule (3) files `from` only "in E.164 with a leading +".
    const s = open(url('&report=true'));
    await s.opened;
    send(s, { type: 'start', from: 'anonymous', to: '2025550999' });
    for (const l of SCAM_LINES) say(s, l);
    send(s, { type: 'stop' });
    await s.closed;
    expect(s.events[0]!.type).to.equal('session.started');
    expect(s.events.at(-1)).to.include({ type: 'session.ended', reported: true, reported_numbers: 1 });
    // Events carry "E.164 numbers when known"; the record keeps `from` and `to` "as given".
    for (const e of s.events) expect(e, e.type as string).to.not.have.any.keys('from', 'to');
    const stored = await api(server.url, 'GET', `/sessions/${s.events[0]!.session_id as string}`, {
      key: server.key,
    });
    expect(stored.body.session).to.include({ from: 'anonymous', to: '2025550999' });
  });

  it('filter session.started carries no persona', async () => {
    const s = await call([]);
    expect(s.events[0]!.type).to.equal('session.started');
    expect(s.events[0]).not.to.have.property('persona');
  });

  it('a clean call sends zero verdict events and files nothing', async () => {
    const s = await call(CLEAN_LINES, '&report=true');
    expect(s.events.filter((e) => e.type === 'verdict')).to.have.length(0);
    expect(s.events.at(-1)).to.include({ reported: false, reported_numbers: 0 });
    expect((s.events.at(-1)!.verdict as Json).category).to.equal('none');
  });

  it('verdict events follow the sending rules: first ≥0.3, rules-only never below 0.5', async () => {
    const s = await call(SCAM_LINES);
    const verdicts = s.events.filter((e) => e.type === 'verdict').map((e) => checkVerdict(e.verdict));
    expect(verdicts.length).to.be.greaterThan(0);
    expect(verdicts[0]!.score as number).to.be.at.least(0.3);
    for (const v of verdicts) if (v.source === 'heuristic') expect(v.score as number).to.be.at.least(0.5);
    for (let i = 1; i < verdicts.length; i++) {
      const a = verdicts[i - 1]!;
      const b = verdicts[i]!;
      const moved =
        a.level !== b.level || a.category !== b.category || Math.abs((b.score as number) - (a.score as number)) >= 0.15;
      expect(moved, `verdict ${i} changed enough to matter`).to.equal(true);
    }
  });

  it('GET /sessions/{id} after the call: session record, stored verdict, intel', async () => {
    const s = await call(SCAM_LINES);
    const id = s.events[0]!.session_id as string;
    const r = await api(server.url, 'GET', `/sessions/${id}`, { key: server.key });
    expect(r.status).to.equal(200);
    expect(r.body.session).to.include({
      id,
      kind: 'filter',
      protocol: 'raw',
      call_id: 'c-1',
      turns: SCAM_LINES.length,
    });
    expect((r.body.verdict as Json).source).to.equal('stored');
    const ended = s.events.at(-1)!;
    expect(r.body.intel).to.deep.equal(ended.intel);
    expect((r.body.verdict as Json).score).to.equal((ended.verdict as Json).score);
  });
});
