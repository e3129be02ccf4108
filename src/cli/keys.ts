import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createKey, newApiKey } from '../boot.js';
import { createLogger } from '../log.js';
import { hashKey, KNOWN_KEY_TTL_MS } from '../server/auth.js';
import { openStore } from '../store/index.js';
import type { KeyRecord, Store } from '../store/types.js';
import { configOrReport } from './config-arg.js';

const USAGE = `Usage:
  voice keys create --credits N [--label L] [--expires WHEN]
                                              prints a new key (shown once; only its hash is stored);
                                              WHEN is an ISO date/time or a span: 30d, 12h
  voice keys list                             id, label, credits, created, expires, revoked, last used
  voice keys credit KEY N                     adds N credits (negative to correct); KEY is the key or its id
  voice keys revoke KEY                       refuses the key on every node within seconds; KEY or its id`;

const SUBCOMMANDS = ['create', 'list', 'credit', 'revoke'];

type Parsed = { credits?: number; label?: string; expires?: string; key?: string; amount?: number };

/** `voice keys …` against the configured store (VOICE_DATA_DIR or MONGODB_URL). */
export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const config = configOrReport();
  if (!config) return 2;
  if (!sub || !SUBCOMMANDS.includes(sub)) {
    console.error(USAGE);
    return 2;
  }
  let parsed: Parsed;
  try {
    parsed = parse(sub, rest);
  } catch (err) {
    console.error(`voice keys ${sub}: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const store = await openStore(config, createLogger('warn', pino.destination(2)));
  try {
    if (sub === 'create') return await create(store, parsed.credits!, parsed.label ?? '', parsed.expires);
    if (sub === 'list') return await list(store);
    if (sub === 'revoke') return await revoke(store, parsed.key!);
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

/** `--expires`: an ISO date or date-time in the future, or a span from now (`30d`, `12h`, `90m`). */
export function expiryOf(raw: string, now: number = Date.now()): string {
  const span = /^(\d{1,5})([dhm])$/.exec(raw);
  const ms = span
    ? now + Number(span[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[span[2] as 'd' | 'h' | 'm']
    : /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(raw)
      ? Date.parse(raw)
      : NaN;
  if (!Number.isFinite(ms)) throw new Error(`--expires must be an ISO date or a span like 30d, got "${raw}"`);
  if (ms <= now) throw new Error(`--expires must be in the future, got "${raw}"`);
  return new Date(ms).toISOString();
}

function parse(sub: string, args: string[]): Parsed {
  if (sub === 'create') {
    const { values } = parseArgs({
      args,
      options: { credits: { type: 'string' }, label: { type: 'string' }, expires: { type: 'string' } },
      strict: true,
    });
    return {
      credits: wholeNumber(values.credits, '--credits', false),
      label: values.label,
      ...(values.expires !== undefined ? { expires: expiryOf(values.expires) } : {}),
    };
  }
  if (sub === 'revoke') {
    if (args.length !== 1) throw new Error('expects KEY');
    return { key: args[0] };
  }
  if (sub === 'list') {
    if (args.length) throw new Error('takes no arguments');
    return {};
  }
  // Plain positionals: N may be negative, which an option parser would take for a flag.
  if (args.length !== 2) throw new Error('expects KEY and N');
  return { key: args[0], amount: wholeNumber(args[1], 'N', true) };
}

async function create(store: Store, credits: number, label: string, expires?: string): Promise<number> {
  const key = newApiKey();
  const rec = await createKey(store, key, credits, label, expires);
  console.log(key);
  console.error(
    `created key ${rec.id} (${label || 'no label'}) with ${credits} credits${expires ? `, expiring ${expires}` : ''}; ` +
      'store it now, it is not shown again',
  );
  return 0;
}

async function list(store: Store): Promise<number> {
  const rows = await store.keys.list();
  console.log(['id', 'label', 'credits', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'].join('\t'));
  for (const k of rows)
    console.log(
      [k.id, k.label, k.credits, k.created_at, k.expires_at ?? '-', k.revoked_at ?? '-', k.last_used_at ?? '-'].join(
        '\t',
      ),
    );
  return 0;
}

async function revoke(store: Store, keyOrId: string): Promise<number> {
  const rec = await findKey(store, keyOrId);
  if (!rec || !(await store.keys.revoke(rec.id, new Date().toISOString()))) {
    console.error('voice keys revoke: no such key');
    return 1;
  }
  console.log(`${rec.id}\trevoked`);
  console.error(
    `key ${rec.id} is refused on every node within ${KNOWN_KEY_TTL_MS / 1000} s; live calls run to their end`,
  );
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
