import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createKey, newApiKey } from '../boot.js';
import { createLogger } from '../log.js';
import { hashKey } from '../server/auth.js';
import { openStore } from '../store/index.js';
import type { KeyRecord, Store } from '../store/types.js';
import { configOrReport } from './config-arg.js';

const USAGE = `Usage:
  voice keys create --credits N [--label L]   prints a new key (shown once; only its hash is stored)
  voice keys list                             id, label, credits, created
  voice keys credit KEY N                     adds N credits (negative to correct); KEY is the key or its id`;

/** `voice keys …` against the configured store (VOICE_DATA_DIR or MONGODB_URL). */
export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const config = configOrReport();
  if (!config) return 2;
  if (!sub || !['create', 'list', 'credit'].includes(sub)) {
    console.error(USAGE);
    return 2;
  }
  let parsed: { credits?: number; label?: string; key?: string; amount?: number };
  try {
    parsed = parse(sub, rest);
  } catch (err) {
    console.error(`voice keys ${sub}: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const store = await openStore(config, createLogger('warn', pino.destination(2)));
  try {
    if (sub === 'create') return await create(store, parsed.credits!, parsed.label ?? '');
    if (sub === 'list') return await list(store);
    return await credit(store, parsed.key!, parsed.amount!);
  } finally {
    await store.close();
  }
}

function wholeNumber(raw: string | undefined, what: string, allowNegative: boolean): number {
  if (raw === undefined || !(allowNegative ? /^-?\d+$/ : /^\d+$/).test(raw)) {
    throw new Error(`${what} must be a whole number${allowNegative ? '' : ' of 0 or more'}`);
  }
  return Number(raw);
}

function parse(sub: string, args: string[]): { credits?: number; label?: string; key?: string; amount?: number } {
  if (sub === 'create') {
    const { values } = parseArgs({
      args,
      options: { credits: { type: 'string' }, label: { type: 'string' } },
      strict: true,
    });
    return { credits: wholeNumber(values.credits, '--credits', false), label: values.label };
  }
  if (sub === 'list') {
    if (args.length) throw new Error('takes no arguments');
    return {};
  }
  // Plain positionals: N may be negative, which an option parser would take for a flag.
  if (args.length !== 2) throw new Error('expects KEY and N');
  return { key: args[0], amount: wholeNumber(args[1], 'N', true) };
}

async function create(store: Store, credits: number, label: string): Promise<number> {
  const key = newApiKey();
  const rec = await createKey(store, key, credits, label);
  console.log(key);
  console.error(
    `created key ${rec.id} (${label || 'no label'}) with ${credits} credits; store it now, it is not shown again`,
  );
  return 0;
}

async function list(store: Store): Promise<number> {
  const rows = await store.keys.list();
  console.log(['id', 'label', 'credits', 'created_at'].join('\t'));
  for (const k of rows) console.log([k.id, k.label, k.credits, k.created_at].join('\t'));
  return 0;
}

async function findKey(store: Store, keyOrId: string): Promise<KeyRecord | undefined> {
  return (await store.keys.findByHash(hashKey(keyOrId))) ?? (await store.keys.list()).find((k) => k.id === keyOrId);
}

async function credit(store: Store, keyOrId: string, amount: number): Promise<number> {
  const rec = await findKey(store, keyOrId);
  if (!rec) {
    console.error('voice keys credit: no such key');
    return 1;
  }
  const balance = await store.keys.credit(rec.id, amount);
  console.log(`${rec.id}\t${balance}`);
  return 0;
}
