/*
 * The V8 flags a node runs with. `npm start` and the image pass them (a test keeps both in step with this
 * list), `voice serve` logs when started without them, and the benchmarks start their processes with them.
 * The `voice` bin keeps a plain `#!/usr/bin/env node`: `env -S` is missing from some systems' env.
 *
 * --max-semi-space-size=4 (MB; V8's default on 64-bit is 16). A live node allocates megabytes a second of
 * objects that die within a frame or two (socket frames, decoded audio, events). With the default young
 * generation, V8 starts incremental marking whenever the old generation's headroom is under the young
 * generation's capacity, and a node's old generation sits there: at 200 calls it marked without pause, a
 * full collection every 2–3 s, its pauses and marking steps of 5–30 ms landing on verdicts. With 4 MB
 * semi-spaces it scavenges more often (about 1.5 ms each) and rarely marks: 8 full collections in a traced
 * 146 s run against 52 (bench/RESULTS.md, the notes of 23:17).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];

/** Those of `NODE_FLAGS` this process was started without (as a node argument or in NODE_OPTIONS). */
export function missingNodeFlags(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): string[] {
  const given = new Set([...execArgv, ...nodeOptions.split(/\s+/)]);
  return NODE_FLAGS.filter((f) => !given.has(f));
}
