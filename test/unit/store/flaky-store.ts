import type { Store } from '../../../src/store/types.js';

/** A real store whose session writes and ping fail while `down` is set: an outage on demand. */
export function flaky(store: Store): { store: Store; outage: { down: boolean; puts: number } } {
  const outage = { down: false, puts: 0 };
  const fail = (): never => {
    throw new Error('store unavailable');
  };
  return {
    outage,
    store: {
      ...store,
      sessions: {
        ...store.sessions,
        async put(s) {
          outage.puts++;
          if (outage.down) fail();
          return store.sessions.put(s);
        },
        get: (id) => store.sessions.get(id),
        listByKey: (k, n) => store.sessions.listByKey(k, n),
        listOpen: (n) => store.sessions.listOpen(n),
      },
      async ping() {
        if (outage.down) fail();
        return store.ping();
      },
      close: () => store.close(),
    },
  };
}
