import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { CLEAN_CALL, ESCALATING_SCAM_CALL, openLive, send, transcript, waitFor } from './helpers/live-client.js';

describe('live filter socket', function () {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  const url = (q = '') => `${server.wsUrl}/voice/filter/stream?key=${server.key}${q}`;

  it('scores a scam conversation: started, lines, rising verdicts, ended with intel, reported and stored', async () => {
    const run = await openLive(url('&report=true'));
    send(run, { type: 'start', call_id: 'call-1', from: '+12025550123', to: '+12025550999', sample_rate: 8000 });
    for (const line of ESCALATING_SCAM_CALL) transcript(run, line);
    transcript(run, 'Okay, I understand.', { track: 'outbound' });
    transcript(run, 'ignored interim', { final: false });
    send(run, { type: 'dtmf', digit: '1' });
    send(run, { type: 'dtmf', digit: '#' });
    send(run, { type: 'stop' });
    const { code } = await run.closed;
    expect(code).to.equal(1000);

    const types = run.events.map((e) => e.type);
    expect(types[0]).to.equal('session.started');
    expect(types.at(-1)).to.equal('session.ended');
    const started = run.events[0]!;
    expect(started).to.include({ kind: 'filter', call_id: 'call-1', from: '+12025550123', to: '+12025550999' });
    expect(started.session_id).to.match(/^[0-9a-f-]{36}$/);
    expect(new Date(started.at as string).toISOString()).to.equal(started.at);

    const lines = run.events.filter((e) => e.type === 'transcript.line');
    expect(lines).to.have.length(ESCALATING_SCAM_CALL.length + 1);
    expect(lines[0]).to.include({ speaker: 'caller', text: ESCALATING_SCAM_CALL[0] });
    expect(lines.at(-1)).to.include({ speaker: 'callee', text: 'Okay, I understand.' });

    const verdicts = run.events.filter((e) => e.type === 'verdict').map((e) => e.verdict as Record<string, unknown>);
    expect(verdicts.length, JSON.stringify(verdicts)).to.be.within(2, 5);
    const scores = verdicts.map((v) => v.score as number);
    expect(scores).to.deep.equal([...scores].sort((a, b) => a - b));
    expect(verdicts.at(-1)!.level).to.equal('scam');
    for (const v of verdicts) expect(v.score as number).to.be.at.least(0.5);

    const ended = run.events.at(-1)!;
    const intel = ended.intel as Record<string, unknown>;
    expect(intel.callback_numbers).to.deep.equal(['+18665550142']);
    expect(intel.dtmf).to.equal('1#');
    expect((ended.verdict as Record<string, unknown>).level).to.equal('scam');
    expect(ended).to.include({ reported: true, reported_numbers: 2 });
    expect(ended.transcript).to.equal(
      [...ESCALATING_SCAM_CALL.map((l) => `caller: ${l}`), 'callee: Okay, I understand.'].join('\n'),
    );
    expect(ended.duration_seconds).to.be.a('number');

    const res = await fetch(`${server.url}/voice/sessions/${started.session_id as string}`, {
      headers: { 'X-Auth': server.key },
    });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as Record<string, Record<string, unknown>>;
    expect(body.session).to.include({
      id: started.session_id,
      kind: 'filter',
      protocol: 'raw',
      call_id: 'call-1',
      reported: true,
    });
    expect(body.session!.turns).to.equal(ESCALATING_SCAM_CALL.length + 1);
    expect(body.session!.level).to.equal('scam');
  });

  it('sends no verdict on a clean conversation and files nothing', async () => {
    const run = await openLive(url('&report=true'), {});
    send(run, { type: 'start', from: '+12025550124' });
    for (const line of CLEAN_CALL) transcript(run, line);
    send(run, { type: 'stop' });
    await run.closed;
    expect(run.events.filter((e) => e.type === 'verdict')).to.deep.equal([]);
    const ended = await waitFor(run, 'session.ended');
    expect(ended).to.include({ reported: false, reported_numbers: 0 });
    expect(ended).to.not.have.property('call_id');
    expect(ended).to.not.have.property('to');
  });

  it('takes the key from the X-Auth header and ends on socket close like a stop', async () => {
    const run = await openLive(`${server.wsUrl}/voice/filter/stream`, { 'X-Auth': server.key });
    send(run, { type: 'start', call_id: 'closer' });
    await waitFor(run, 'session.started');
    transcript(run, ESCALATING_SCAM_CALL[1]!);
    await waitFor(run, 'transcript.line');
    run.ws.close();
    await run.closed;
    const started = run.events[0]!;
    // The session still ends properly without its socket: final record written.
    for (let i = 0; i < 100; i++) {
      const rec = await server.services.store.sessions.get(started.session_id as string);
      if (rec?.state === 'ended') {
        expect(rec.turns).to.equal(1);
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    expect.fail('session record never ended');
  });

  it('refuses the upgrade with 401 without a key or with a wrong key', async () => {
    for (const u of [`${server.wsUrl}/voice/filter/stream`, `${server.wsUrl}/voice/filter/stream?key=nope_nope_nope`]) {
      const err = (await openLive(u).then(
        () => expect.fail('upgraded'),
        (e: unknown) => e,
      )) as { status: number; body: string };
      expect(err.status).to.equal(401);
      expect(JSON.parse(err.body)).to.include({ status: 'error' });
    }
  });
});

describe('live filter on node shutdown', function () {
  it('stops accepting, ends live sessions with final analysis, record and session.ended', async () => {
    const server = await startTestServer();
    const run = await openLive(`${server.wsUrl}/voice/filter/stream?key=${server.key}`);
    send(run, { type: 'start', call_id: 'drained' });
    transcript(run, ESCALATING_SCAM_CALL[0]!);
    await waitFor(run, 'transcript.line');
    const id = run.events[0]!.session_id as string;
    // Watch the writes: the node closes its store right after the drain.
    const sessions = server.services.store.sessions;
    const put = sessions.put.bind(sessions);
    const written: string[] = [];
    sessions.put = async (rec) => {
      await put(rec);
      written.push(`${rec.id}:${rec.state}`);
    };
    const waiting = await openLive(`${server.wsUrl}/voice/filter/stream?key=${server.key}`);
    const closing = server.close();
    expect(await waiting.closed).to.deep.equal({ code: 1001, reason: 'server shutting down' });
    expect(waiting.events).to.deep.equal([]);
    const ended = await waitFor(run, 'session.ended');
    expect(written).to.deep.equal([`${id}:ended`]);
    expect((await run.closed).code).to.equal(1000);
    expect(ended.transcript).to.equal(`caller: ${ESCALATING_SCAM_CALL[0]!}`);
    expect(ended.session_id).to.equal(id);
    await closing;
  });
});
