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
} from './helpers.js';

const SCAM_LINES = [
  'This is officer Brooks from the Social Security Administration, your number has been suspended.',
  'A warrant will be issued for your arrest today unless you pay the fine with Target gift cards.',
  'Do not tell anyone about this call. Call me back at 888 555 0199.',
];

describe('conformance: WebSocket /honeypot/stream', function () {
  this.timeout(30_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ VOICE_HONEYPOT_REPLY_PAUSE_MS: '50' });
  });
  after(() => server.close());
  const url = (q = '') => `${server.wsUrl}/voice/honeypot/stream?key=${server.key}${q}`;

  it('upgrade: 401 without a key or with a wrong key; X-Auth header or key query accepted', async () => {
    expect(await upgradeStatus(`${server.wsUrl}/voice/honeypot/stream`)).to.equal(401);
    expect(await upgradeStatus(`${server.wsUrl}/voice/honeypot/stream?key=nope`)).to.equal(401);
    expect(await upgradeStatus(`${server.wsUrl}/voice/honeypot/stream`, { 'X-AUTH': server.key })).to.equal(101);
    expect(await upgradeStatus(url())).to.equal(101);
  });

  it('upgrade: 503 when honeypot is false in capabilities', async () => {
    const off = await startTestServer({ VOICE_FEATURES: 'scan,live_filter' });
    try {
      const caps = await api(off.url, 'GET', '/capabilities', { key: off.key });
      expect((caps.body.capabilities as Json).honeypot).to.equal(false);
      expect(await upgradeStatus(`${off.wsUrl}/voice/honeypot/stream?key=${off.key}`)).to.equal(503);
    } finally {
      await off.close();
    }
  });

  it('session.started carries the persona object (id from GET /personas, name); kind honeypot', async () => {
    const personas = ((await api(server.url, 'GET', '/personas', { key: server.key })).body.personas as Json[]).map(
      (p) => p.id,
    );
    const s = open(url());
    await s.opened;
    send(s, { type: 'start', call_id: 'hp-1', from: '+12025550140', encoding: 'mulaw' });
    const started = await waitFor(s, 'session.started');
    expect(started).to.include({ kind: 'honeypot', call_id: 'hp-1', from: '+12025550140' });
    expect(started.session_id).to.match(UUID);
    expect(started.at).to.match(RFC3339);
    const persona = started.persona as Json;
    expect(persona).to.be.an('object');
    expect(personas).to.include(persona.id);
    expect(persona.name).to.be.a('string');
    send(s, { type: 'stop' });
    await s.closed;
  });

  it('persona option (params) picks the persona; an unknown persona closes the socket with no events', async () => {
    const list = (await api(server.url, 'GET', '/personas', { key: server.key })).body.personas as Json[];
    const want = list[list.length - 1]!;
    const s = open(url());
    await s.opened;
    send(s, { type: 'start', params: { persona: want.id } });
    const started = await waitFor(s, 'session.started');
    expect((started.persona as Json).id).to.equal(want.id);
    send(s, { type: 'stop' });
    await s.closed;

    const bad = open(url('&persona=no-such-persona'));
    await bad.opened;
    send(bad, { type: 'start' });
    await bad.closed;
    expect(bad.events).to.have.length(0);
  });

  it('persona audio: binary frames in the client encoding and rate (pcm16 16 kHz: 640-byte 20 ms frames)', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start', encoding: 'pcm16', sample_rate: 16000 });
    for (let i = 0; i < 1000 && s.binary.length < 10; i++) await new Promise((r) => setTimeout(r, 10));
    expect(s.binary.length).to.be.greaterThan(0);
    // 20 ms frames (the tail of an utterance may be shorter); whole 16-bit samples
    for (const b of s.binary) expect(b.length % 2 === 0 && b.length <= 640, String(b.length)).to.equal(true);
    expect(s.binary.filter((b) => b.length === 640).length).to.be.at.least(s.binary.length - 1);
    send(s, { type: 'stop' });
    await s.closed;
  });

  it('persona audio in mu-law at 8 kHz: 160-byte frames; a mark carries a string name', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start', encoding: 'mulaw' });
    const mark = await waitFor(s, 'mark', 25_000);
    expect(mark.name).to.be.a('string');
    for (const b of s.binary) expect(b.length).to.be.at.most(160);
    expect(s.binary.filter((b) => b.length === 160).length).to.be.at.least(s.binary.length - 1);
    send(s, { type: 'stop' });
    await s.closed;
  });

  it('the caller talking over the persona gets a clear', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start', encoding: 'mulaw' });
    await waitFor(s, 'session.started');
    for (let i = 0; i < 200 && s.binary.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    say(s, 'Hello? Who is this?');
    await waitFor(s, 'clear');
    send(s, { type: 'stop' });
    await s.closed;
  });

  it('report defaults to true: a scam files the caller plus every callback number; transcript uses persona name and caller', async () => {
    const s = open(url());
    await s.opened;
    send(s, { type: 'start', from: '+12025550141', encoding: 'mulaw' });
    const started = await waitFor(s, 'session.started');
    const name = (started.persona as Json).name as string;
    for (const l of SCAM_LINES) say(s, l, { end_of_turn: true });
    for (let i = 0; i < 300; i++) {
      if (s.events.filter((e) => e.type === 'transcript.line' && e.speaker === name).length >= 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    send(s, { type: 'stop' });
    await s.closed;
    const ended = s.events.at(-1)!;
    expect(ended.type).to.equal('session.ended');
    checkVerdict(ended.verdict);
    checkIntel(ended.intel);
    expect((ended.verdict as Json).score as number).to.be.at.least(0.8);
    expect(ended).to.include({ reported: true, reported_numbers: 2 });
    const speakers = new Set((ended.transcript as string).split('\n').map((l) => l.slice(0, l.indexOf(': '))));
    expect([...speakers].sort()).to.deep.equal([name, 'caller'].sort());
    for (const e of s.events.filter((x) => x.type === 'transcript.line'))
      expect([name, 'caller']).to.include(e.speaker);

    const rec = await api(server.url, 'GET', `/sessions/${started.session_id as string}`, { key: server.key });
    expect(rec.body.session).to.include({ kind: 'honeypot', persona_id: (started.persona as Json).id, reported: true });
    const record = rec.body.session as Json;
    expect(record.transcript).to.equal(ended.transcript);
    expect(record.turns).to.equal((ended.transcript as string).split('\n').length);
    expect(record.protocol).to.equal('raw');
  });

  it('report=false (URL) files nothing', async () => {
    const s = open(url('&report=false'));
    await s.opened;
    send(s, { type: 'start', from: '+12025550142', encoding: 'mulaw' });
    for (const l of SCAM_LINES) say(s, l);
    send(s, { type: 'stop' });
    await s.closed;
    expect(s.events.at(-1)).to.include({ type: 'session.ended', reported: false, reported_numbers: 0 });
  });

  it('greeting cannot be spoken: session.error (error, text) is sent and the session ends', async () => {
    // A speech provider this machine cannot reach refuses the greeting.
    const mute = await startTestServer({ VOICE_TTS: 'polly', AWS_ENDPOINT_URL: 'http://127.0.0.1:9' });
    try {
      const s = open(`${mute.wsUrl}/voice/honeypot/stream?key=${mute.key}`);
      await s.opened;
      send(s, { type: 'start', encoding: 'mulaw' });
      await s.closed;
      expect(s.events.map((e) => e.type)).to.deep.equal(['session.started', 'session.error', 'session.ended']);
      const err = s.events[1]!;
      expect(err.error).to.be.a('string').and.not.equal('');
      expect(err.text).to.be.a('string');
      expect(err.kind).to.equal('honeypot');
    } finally {
      await mute.close();
    }
  });

  it('a binary frame before start closes the socket with no events', async () => {
    const s = open(url());
    await s.opened;
    s.ws.send(Buffer.alloc(160));
    await s.closed;
    expect(s.events).to.have.length(0);
    expect(s.binary).to.have.length(0);
  });
});
