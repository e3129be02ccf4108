import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toArray, firstValueFrom } from 'rxjs';
import { buildServices, closeServices, createKey, newApiKey } from '../../../src/boot.js';
import { loadConfig } from '../../../src/config.js';
import type { SessionEvent } from '../../../src/domain/events.js';
import { createLogger } from '../../../src/log.js';
import type { Services } from '../../../src/services.js';
import { closeOrphans, INTERRUPTED_SUMMARY } from '../../../src/store/orphans.js';
import { InsufficientCreditsError, Supervisor } from '../../../src/session/supervisor.js';
import type { SessionSpec } from '../../../src/session/types.js';
import type { KeyRecord } from '../../../src/store/types.js';

describe('session supervisor and actor', function () {
  let dir: string;
  let services: Services;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-sup-'));
    const config = loadConfig({
      VOICE_DATA_DIR: dir,
      VOICE_LLM: 'none',
      VOICE_STT: 'none',
      VOICE_TTS: 'none',
      VOICE_SIP_PORT: '0',
    });
    services = await buildServices(config, createLogger('silent'));
  });
  after(async () => {
    await closeServices(services);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function spec(credits: number): Promise<SessionSpec> {
    const raw = newApiKey();
    const key: KeyRecord = await createKey(services.store, raw, credits, 'sup');
    return {
      kind: 'filter',
      protocol: 'raw',
      key,
      rawKey: raw,
      start: { audio: { encoding: 'pcm16', sampleRate: 8000 }, params: {}, callId: 'c-1' },
      options: { report: false, tracksBoth: false },
    };
  }

  it('hands out capacity slots up to its capacity; a release frees one, once', () => {
    const sup = new Supervisor(services, { capacity: 2 });
    const a = sup.reserve()!;
    const b = sup.reserve()!;
    expect(sup.reserve()).to.equal(null);
    a.release();
    a.release();
    expect(sup.reserved).to.equal(1);
    expect(sup.reserve()).to.not.equal(null);
    b.release();
  });

  it('charges the first minute and writes an open record before the session runs', async () => {
    const sup = new Supervisor(services);
    const s = await spec(10);
    const actor = await sup.open(s, sup.reserve()!);
    expect(await services.store.keys.balance(s.key.id)).to.equal(7);
    const rec = await services.store.sessions.get(actor.id);
    expect(rec).to.include({ state: 'open', kind: 'filter', call_id: 'c-1', node_id: services.config.nodeId });
    actor.end('stop');
    actor.run();
    await actor.settled;
  });

  it('refuses to open when the first minute cannot be charged, writing nothing', async () => {
    const sup = new Supervisor(services);
    const s = await spec(2);
    const slot = sup.reserve()!;
    const err = await sup.open(s, slot).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(InsufficientCreditsError);
    expect(await services.store.keys.balance(s.key.id)).to.equal(2);
    expect(await services.store.sessions.listByKey(s.key.id, 10)).to.deep.equal([]);
  });

  it('delivers frames pushed before run in order, and releases the slot when the session ended', async () => {
    const sup = new Supervisor(services, { capacity: 1 });
    const actor = await sup.open(await spec(10), sup.reserve()!);
    actor.push({ kind: 'text', track: 'inbound', text: 'first', final: true, endOfTurn: false });
    actor.push({ kind: 'text', track: 'outbound', text: 'second', final: true, endOfTurn: false });
    actor.push({ kind: 'stop', reason: 'stop' });
    actor.push({ kind: 'text', track: 'inbound', text: 'after the stop', final: true, endOfTurn: false });
    const events = firstValueFrom(actor.events$.pipe(toArray()));
    actor.run();
    const list: SessionEvent[] = await events;
    expect(list.map((e) => e.type)).to.deep.equal([
      'session.started',
      'transcript.line',
      'transcript.line',
      'session.ended',
    ]);
    const ended = list.at(-1) as Extract<SessionEvent, { type: 'session.ended' }>;
    expect(ended.transcript).to.equal('caller: first\ncallee: second');
    await actor.settled;
    expect(sup.reserved).to.equal(0);
    expect((await services.store.sessions.get(actor.id))?.state).to.equal('ended');
  });

  it('drains: stops accepting and ends every live session properly', async () => {
    const sup = new Supervisor(services);
    const actors = await Promise.all([1, 2, 3].map(async () => sup.open(await spec(10), sup.reserve()!)));
    const ends = actors.map((a) => firstValueFrom(a.events$.pipe(toArray())));
    for (const a of actors) a.run();
    await sup.drain(5000);
    expect(sup.reserve()).to.equal(null);
    for (const list of await Promise.all(ends)) expect(list.at(-1)!.type).to.equal('session.ended');
    for (const a of actors) expect((await services.store.sessions.get(a.id))?.state).to.equal('ended');
    expect(sup.liveCount).to.equal(0);
  });

  it('closes the records a crashed run left open, once, as interrupted', async () => {
    const sup = new Supervisor(services);
    const actor = await sup.open(await spec(10), sup.reserve()!); // never run: the "crash"
    const at = new Date(Date.now() + 90_000);
    expect(await closeOrphans(services.store, services.config.nodeId, at)).to.have.length.at.least(1);
    const rec = (await services.store.sessions.get(actor.id))!;
    expect(rec).to.include({ state: 'ended', ended_at: at.toISOString(), summary: INTERRUPTED_SUMMARY });
    expect(rec.duration_seconds).to.be.within(89, 91);
    expect(await closeOrphans(services.store, services.config.nodeId, at)).to.have.length(0);
  });
});
