/*
 * Performance benchmarks. `npm run bench` runs them all; `npm run bench -- latency capacity` some.
 *
 *   --short         smoke mode for CI (few sessions, seconds per step)
 *   --sessions N    sessions for latency (default 200) and soak (default 200); for capacity, one step of N
 *                   (no ramp) and the CPU ratio at N
 *   --seconds S     hold / run time override
 *   --no-write      print only (by default each run is also appended to bench/RESULTS.md)
 *
 * Benchmarks: latency, capacity, scan, memory; and, only when named, speech (spoken calls: word error and
 * verdicts; bench/speech).
 */
import { hostReference } from './lib/host-speed.js';
import { machine, appendRun } from './lib/report.js';

export interface Opts {
  short: boolean;
  sessions?: number;
  seconds?: number;
}

const BENCHMARKS = {
  latency: async (o: Opts) => (await import('./live/latency.js')).latency(o),
  capacity: async (o: Opts) => (await import('./live/capacity.js')).capacity(o),
  scan: async (o: Opts) => (await import('./scan.js')).scan(o),
  memory: async (o: Opts) => (await import('./live/soak.js')).soak(o),
  speech: async (o: Opts) => (await import('./speech/speech.js')).speech(o),
} as const;
type Name = keyof typeof BENCHMARKS;
/** `speech` renders and recognises many calls (tens of minutes): run it by name. */
const DEFAULT: Name[] = ['latency', 'capacity', 'scan', 'memory'];

function parse(argv: string[]): { names: Name[]; opts: Opts; write: boolean } {
  const names: Name[] = [];
  const opts: Opts = { short: false };
  let write = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--short') opts.short = true;
    else if (a === '--no-write') write = false;
    else if (a === '--sessions' || a === '--seconds') {
      const v = Number(argv[++i]);
      if (!Number.isInteger(v) || v < 1) throw new Error(`${a} needs a positive integer`);
      opts[a === '--sessions' ? 'sessions' : 'seconds'] = v;
    } else if (a in BENCHMARKS) names.push(a as Name);
    else throw new Error(`unknown argument ${a} (benchmarks: ${Object.keys(BENCHMARKS).join(', ')})`);
  }
  return { names: names.length ? names : DEFAULT, opts, write };
}

const { names, opts, write } = parse(process.argv.slice(2));
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const head = [
  `### ${opts.short ? 'Smoke run (--short: figures are not representative)' : 'Run'}: ${names.join(', ')}`,
  '',
  machine(),
  `- command: \`${command}\``,
].join('\n');
console.log(head);
const sections: string[] = [];
hostReference(); // compiled and warm before the first reading
for (const name of names) {
  const t0 = performance.now();
  const before = hostReference();
  console.error(`[bench] ${name} …`);
  const md = await BENCHMARKS[name](opts);
  const after = hostReference();
  console.error(`[bench] ${name} done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  const speed =
    `Host speed (\`bench/lib/host-speed.ts\`: the rules scoring fixture calls on one idle thread): ` +
    `${Math.round(before)} calls/s before, ${Math.round(after)} after.`;
  console.log(`\n${md}\n\n${speed}`);
  sections.push(`${md}\n\n${speed}`);
}
if (write) appendRun([head, ...sections].join('\n\n'));
process.exit(0);
