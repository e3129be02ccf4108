import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { config as rxConfig, map, Subject, throwError } from 'rxjs';
import { filterPipeline } from '../../../pipelines/filter.js';
import type { Pipeline } from '../../../pipelines/types.js';
import { buildServices, closeServices, createKey, newApiKey } from '../../../src/boot.js';
import { loadConfig } from '../../../src/config.js';
import type { SessionEvent } from '../../../src/domain/events.js';
import type { Services } from '../../../src/services.js';
import type { SessionActor } from '../../../src/session/actor.js';
import { containUnhandledErrors } from '../../../src/session/contain.js';
import { Supervisor } from '../../../src/session/supervisor.js';
import { captureLogger } from '../../helpers/server.js';

/**
 * An error inside one call's streams ends that call, properly (final analysis, record, `session.ended`),
 * and is logged; it never reaches the process, whose other calls go on.
 */
describe('session containment: one call’s error ends that call, never the node', function () {
  let dir: string;
  let services: Services;
  let lines: Array<Record<string, unknown>>;
  const saved = rxConfig.onUnhandledError;
  const unhandled: unknown[] = [];
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-contain-'));
    const captured = captureLogger('info');
    lines = captured.lines;
    services = await buildServices(
      loadConfig({ VOICE_DATA_DIR: dir, VOICE_LLM: 'none', VOICE_STT: 'none', VOICE_TTS: 'none', VOICE_SIP_PORT: '0' }),
      captured.log,
    );
    // Anything RxJS would rethrow to the process is collected instead, and must stay empty.
    rxConfig.onUnhandledError = (err) => unhandled.push(err);
  });
  after(async () => {
    rxConfig.onUnhandledError = saved;
    await closeServices(services);
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => (unhandled.length = 0));

  async function start(sup: Supervisor, callId: string): Promise<{ actor: SessionActor; events: SessionEvent[] }> {
    const raw = newApiKey();
    const key = await createKey(services.store, raw, 100, 'contain');
    const actor = await sup.open(
      {
        kind: 'filter',
        protocol: 'raw',
        key,
        rawKey: raw,
        start: { audio: { encoding: 'pcm16', sampleRate: 8000 }, params: {}, callId },
        options: { report: false, tracksBoth: false },
      },
      sup.reserve()!,
    );
    const events: SessionEvent[] = [];
    actor.events$.subscribe(actor.guard((e: SessionEvent) => events.push(e)));
    return { actor, events };
  }

  const say = (actor: SessionActor, text: string) =>
    actor.push({ kind: 'text', track: 'inbound', text, final: true, endOfTurn: true });

  async function endedProperly(actor: SessionActor, events: SessionEvent[]): Promise<void> {
    await actor.settled;
    expect(events.at(-1)?.type).to.equal('session.ended');
    expect((await services.store.sessions.get(actor.id))?.state).to.equal('ended');
    expect(lines.some((l) => l.msg === 'session ended' && l.session === actor.id && l.reason === 'error')).to.equal(
      true,
    );
  }

  it('a transport sink that throws ends its own session with reason error; the next call is unaffected', async () => {
    const sup = new Supervisor(services);
    const { actor, events } = await start(sup, 'sink-throws');
    const bystander = await start(sup, 'bystander');
    actor.events$.subscribe(
      actor.guard((e: SessionEvent) => {
        if (e.type === 'transcript.line') throw new RangeError('bad port, say');
      }),
    );
    actor.run();
    bystander.actor.run();
    say(actor, 'hello there');
    await endedProperly(actor, events);
    expect(lines.some((l) => l.msg === 'session sink failed; ending the session' && l.session === actor.id)).to.equal(
      true,
    );
    say(bystander.actor, 'still talking');
    await new Promise((r) => setTimeout(r, 50));
    expect(bystander.events.map((e) => e.type)).to.include('transcript.line');
    expect(bystander.actor.isStopped).to.equal(false);
    bystander.actor.end('stop');
    await bystander.actor.settled;
    expect(unhandled).to.deep.equal([]);
  });

  it('a defect inside the graph ends the session through its normal ending', async () => {
    const defective: Pipeline = (ctx) =>
      filterPipeline({
        ...ctx,
        frames$: ctx.frames$.pipe(
          map((f) => {
            if (f.kind === 'text' && f.text === 'boom') throw new Error('defect in an operator');
            return f;
          }),
        ),
      });
    const sup = new Supervisor(services, { pipelines: { filter: defective } });
    const { actor, events } = await start(sup, 'graph-defect');
    actor.run();
    say(actor, 'boom');
    await endedProperly(actor, events);
    expect(unhandled).to.deep.equal([]);
  });

  it('a failing outbound stream ends the session instead of being dropped', async () => {
    const failing = new Subject<never>();
    const broken: Pipeline = (ctx) => ({ ...filterPipeline(ctx), outbound$: failing.asObservable() });
    const sup = new Supervisor(services, { pipelines: { filter: broken } });
    const { actor, events } = await start(sup, 'outbound-fails');
    actor.run();
    failing.error(new Error('persona audio failed'));
    await endedProperly(actor, events);
  });

  it('an error nobody handles is logged through the node’s logger, not rethrown to the process', async () => {
    const captured = captureLogger('info');
    containUnhandledErrors(captured.log);
    try {
      throwError(() => new Error('nobody listens')).subscribe();
      await new Promise((r) => setTimeout(r, 20));
      const line = captured.lines.find((l) => l.msg === 'unhandled error in a stream; the node goes on');
      expect((line?.err as { message?: string } | undefined)?.message).to.equal('nobody listens');
    } finally {
      rxConfig.onUnhandledError = (err) => unhandled.push(err);
    }
  });
});
