/*
 * The benchmark's side of a node: a scan request (the product's own POST /voice/scan) and a small
 * worker pool, shared by the spoken-call benchmark and the recognised-call collection.
 */
import { sleep } from '../lib/procs.js';

export interface Verdict {
  level: string;
  score: number;
}

export async function scan(base: string, key: string, body: object): Promise<{ verdict: Verdict; transcript: string }> {
  // A kept-alive connection the node has just closed fails the request: retry on a fresh one.
  for (let attempt = 0; ; attempt++) {
    let failure: string;
    try {
      const res = await fetch(`${base}/voice/scan`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth': key, connection: 'close' },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { verdict: Verdict; transcript: string };
      if (res.ok) return json;
      failure = `scan answered ${res.status}: ${JSON.stringify(json)}`;
    } catch (e) {
      failure = `scan failed: ${e instanceof Error ? e.message : String(e)}`;
    }
    if (attempt >= 2) throw new Error(failure);
    console.error(`[speech] ${failure}; retrying`);
    await sleep(2000);
  }
}

export async function pool<T>(items: T[], width: number, fn: (t: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let t = queue.shift(); t !== undefined; t = queue.shift()) await fn(t);
    }),
  );
}
