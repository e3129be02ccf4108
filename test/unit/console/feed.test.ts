import { expect } from 'chai';
import { Subject } from 'rxjs';
import { ConsoleFeed, type ConsoleMessage } from '../../../src/console/feed.js';
import type { SessionEvent } from '../../../src/domain/events.js';
import type { SessionActor } from '../../../src/session/actor.js';

/** Just what the feed reads of an actor: its id, spec and events. */
function fakeActor(id: string, keyId: string): { actor: SessionActor; events: Subject<SessionEvent> } {
  const events = new Subject<SessionEvent>();
  const actor = {
    id,
    spec: {
      kind: 'filter',
      protocol: 'raw',
      key: { id: keyId },
      start: { callId: `call-${id}`, from: '+12025550123' },
    },
    events$: events.asObservable(),
  } as unknown as SessionActor;
  return { actor, events };
}

const started = (id: string): SessionEvent => ({
  type: 'session.started',
  session_id: id,
  kind: 'filter',
  at: new Date().toISOString(),
});
const line = (id: string, text: string): SessionEvent => ({
  type: 'transcript.line',
  session_id: id,
  kind: 'filter',
  at: new Date().toISOString(),
  speaker: 'caller',
  text,
});

describe('console feed', () => {
  it("fans a session's events out to its own key's watchers only, and keeps them for the next snapshot", () => {
    const opened = new Subject<SessionActor>();
    const feed = new ConsoleFeed(opened);
    const mine: ConsoleMessage[] = [];
    const theirs: ConsoleMessage[] = [];
    feed.watch('key-a', (m) => mine.push(m));
    feed.watch('key-b', (m) => theirs.push(m));

    const a = fakeActor('s1', 'key-a');
    opened.next(a.actor);
    a.events.next(started('s1'));
    a.events.next(line('s1', 'hello'));
    a.events.complete();

    expect(mine.map((m) => m.type)).to.deep.equal(['session', 'event', 'event', 'closed']);
    expect(theirs).to.deep.equal([]);
    const [snap] = feed.snapshot('key-a');
    expect(snap).to.include({ session_id: 's1', call_id: 'call-s1', from: '+12025550123', live: false });
    expect(snap!.events.map((e) => e.type)).to.deep.equal(['session.started', 'transcript.line']);
    expect(feed.snapshot('key-b')).to.deep.equal([]);
  });

  it('keeps a bounded history: the oldest ended sessions go first, a long call keeps its start and latest events', () => {
    const opened = new Subject<SessionActor>();
    const feed = new ConsoleFeed(opened, { keepEnded: 2, maxEvents: 3 });
    const live = fakeActor('live', 'k');
    opened.next(live.actor);
    for (const id of ['e1', 'e2', 'e3']) {
      const x = fakeActor(id, 'k');
      opened.next(x.actor);
      x.events.complete();
    }
    opened.next(fakeActor('e4', 'k').actor); // pruning happens as sessions open
    expect(feed.snapshot('k').map((s) => s.session_id)).to.deep.equal(['e4', 'e3', 'e2', 'live']);

    live.events.next(started('live'));
    for (const t of ['a', 'b', 'c', 'd']) live.events.next(line('live', t));
    const events = feed.snapshot('k').find((s) => s.session_id === 'live')!.events;
    expect(events.map((e) => (e.type === 'transcript.line' ? e.text : e.type))).to.deep.equal([
      'session.started',
      'c',
      'd',
    ]);
  });

  it('a watcher that throws never disturbs the session or other watchers', () => {
    const opened = new Subject<SessionActor>();
    const feed = new ConsoleFeed(opened);
    const got: string[] = [];
    feed.watch('k', () => {
      throw new Error('socket gone');
    });
    const stop = feed.watch('k', (m) => got.push(m.type));
    const x = fakeActor('s', 'k');
    opened.next(x.actor);
    x.events.next(started('s'));
    stop();
    x.events.next(line('s', 'after'));
    expect(got).to.deep.equal(['session', 'event']);
  });
});
