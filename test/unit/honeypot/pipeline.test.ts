import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Subject } from 'rxjs';
import { createHoneypotPipeline } from '../../../pipelines/honeypot/pipeline.js';
import type { PipelinePorts } from '../../../pipelines/ports.js';
import { loadConfig } from '../../../src/config.js';
import type { SessionEvent } from '../../../src/domain/events.js';
import type { Frame, OutboundFrame } from '../../../src/domain/frames.js';
import { PERSONAS } from '../../../src/honeypot/personas.js';
import { SPEC_TIMING } from '../../../pipelines/honeypot/timing.js';
import { createLogger } from '../../../src/log.js';
import { createEmbeddedStore, type EmbeddedStore } from '../../../src/store/embedded/index.js';
import type { KeyRecord } from '../../../src/store/types.js';
import { SteppedClock } from './virtual-time.js';

describe('honeypot pipeline (virtual time, embedded store)', () => {
  let dir: string;
  let store: EmbeddedStore;
  const key: KeyRecord = {
    id: 'k1',
    hash: 'h1',
    label: 'test',
    credits: 10_000,
    created_at: new Date(0).toISOString(),
  };

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'honeypot-pipeline-'));
    store = createEmbeddedStore(path.join(dir, 'voice.db'));
    await store.keys.create({ ...key });
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function session(persona?: string) {
    const clock = new SteppedClock();
    const config = loadConfig({ VOICE_DATA_DIR: dir, VOICE_LLM: 'local' });
    const ports: PipelinePorts = {
      log: createLogger('silent'),
      store,
      llm: null,
      stt: null,
      tts: null,
      personas: PERSONAS,
      nodeId: config.nodeId,
      ...(config.tuning ? { tuning: config.tuning } : {}),
      chat: () => null,
    };
    const frames$ = new Subject<Frame>();
    const events: SessionEvent[] = [];
    const out: OutboundFrame[] = [];
    let done = false;
    const pipeline = createHoneypotPipeline({ timing: SPEC_TIMING });
    const run = pipeline({
      sessionId: '00000000-0000-4000-8000-000000000001',
      spec: {
        kind: 'honeypot',
        protocol: 'raw',
        key,
        rawKey: 'raw',
        start: { from: '+12025550123', audio: { encoding: 'mulaw', sampleRate: 8000 }, params: {} },
        options: { report: true, tracksBoth: false, ...(persona ? { persona } : {}) },
      },
      frames$,
      ports,
      scheduler: clock.scheduler,
    });
    run.outbound$.subscribe((f) => out.push(f));
    run.events$.subscribe({ next: (e) => events.push(e), complete: () => (done = true) });
    const say = (text: string) => frames$.next({ kind: 'text', track: 'inbound', text, final: true, endOfTurn: true });
    return { clock, frames$, events, out, say, isDone: () => done };
  }

  it('persona in session.started, its lines under its name, hang-up after silence, record with persona_id', async () => {
    const s = session('rosa');
    await s.clock.advance(10);
    const started = s.events[0]!;
    expect(started.type).to.equal('session.started');
    expect(started.type === 'session.started' && started.persona).to.deep.include({ id: 'rosa', name: 'Rosa' });
    s.say('Hello, this is Brian Turner from City Power and Light. Call me back at 202-555-0193.');
    await s.clock.advance(10);
    const lines = s.events.filter((e) => e.type === 'transcript.line');
    expect(lines.map((e) => e.type === 'transcript.line' && e.speaker)).to.deep.equal(['Rosa', 'caller', 'Rosa']);
    // Silent from now: prompts at 8, 16, 24 s, goodbye at 32 s, then the session ends.
    await s.clock.advance(31_000);
    expect(s.isDone()).to.equal(false);
    await s.clock.advance(2_000);
    expect(s.isDone()).to.equal(true);
    expect(s.out.at(-1)).to.deep.equal({ kind: 'hangup' });
    const ended = s.events.at(-1)!;
    expect(ended.type).to.equal('session.ended');
    if (ended.type !== 'session.ended') return;
    expect(ended.transcript.split('\n').map((l) => l.split(':')[0])).to.deep.equal([
      'Rosa',
      'caller',
      'Rosa',
      'Rosa',
      'Rosa',
      'Rosa',
      'Rosa',
    ]);
    const rec = await store.sessions.get('00000000-0000-4000-8000-000000000001');
    expect(rec).to.deep.include({ kind: 'honeypot', persona_id: 'rosa', state: 'ended' });
  });

  it('a talkative caller is cut off at 15 minutes, charged 8 credits for every further started minute', async () => {
    const s = session();
    const before = await store.keys.balance('k1');
    for (let t = 0; t < 15 * 60 && !s.isDone(); t += 5) {
      s.say(`Are you still there? I need your card number, this is minute ${Math.floor(t / 60)}.`);
      await s.clock.advance(5000, 1000);
    }
    await s.clock.advance(1000);
    expect(s.isDone()).to.equal(true);
    expect(s.clock.now).to.be.within(15 * 60_000, 15 * 60_000 + 6_000);
    const ended = s.events.at(-1)!;
    expect(ended.type).to.equal('session.ended');
    expect(ended.type === 'session.ended' && ended.duration_seconds).to.equal(900);
    // The first minute is charged when the socket opens the session; the meter charges minutes 2 to 15.
    expect(before - (await store.keys.balance('k1'))).to.equal(14 * 8);
  });
});
