import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AnalysisPool } from './analysis/pool.js';
import type { Config } from './config.js';
import { PERSONAS } from './honeypot/personas.js';
import type { Logger } from './log.js';
import { instrumentProviders } from './observability/instrument.js';
import { createModelProvider, type ModelProvider } from './providers/llm/index.js';
import { createSpeechToText, type SpeechToText } from './providers/stt/index.js';
import { createTextToSpeech } from './providers/tts/index.js';
import type { TextToSpeech } from './providers/tts/types.js';
import { hashKey } from './server/auth.js';
import type { Services } from './services.js';
import { openStore } from './store/index.js';
import { warmUpRules } from './rules/index.js';
import { recoverSessions } from './store/journal.js';
import { checkModel, checkSettings, checkVoice } from './startup-checks.js';
import type { KeyRecord, Store } from './store/types.js';

/** A new API key: 32 random bytes, URL-safe, with a recognisable prefix. */
export function newApiKey(): string {
  return `vk_${randomBytes(32).toString('base64url')}`;
}

/** Stores a new key (as its hash only) and returns the record. */
export async function createKey(
  store: Store,
  key: string,
  credits: number,
  label: string,
  expiresAt?: string,
): Promise<KeyRecord> {
  const rec: KeyRecord = {
    id: randomUUID(),
    hash: hashKey(key),
    label,
    credits,
    created_at: new Date().toISOString(),
    ...(expiresAt ? { expires_at: expiresAt } : {}),
  };
  await store.keys.create(rec);
  return rec;
}

/** Keys from VOICE_BOOTSTRAP_KEYS are created when absent; an existing key keeps its balance. */
export async function bootstrapKeys(store: Store, config: Config, log: Logger): Promise<void> {
  for (const [i, { key, credits }] of config.bootstrapKeys.entries()) {
    if (await store.keys.findByHash(hashKey(key))) continue;
    const rec = await createKey(store, key, credits, `bootstrap-${i + 1}`);
    log.info({ keyId: rec.id, credits }, 'bootstrap key created');
  }
}

export const DEV_KEY_FILE = 'dev-key.txt';
export const DEV_KEY_CREDITS = 100_000;

/**
 * A fresh install has no key at all: make one with 100 000 credits so the service is usable at once,
 * and keep it (mode 0600) in the data dir so later starts can show it again.
 */
export async function ensureDevKey(store: Store, dataDir: string): Promise<{ key: string; created: boolean } | null> {
  const file = path.join(dataDir, DEV_KEY_FILE);
  const keys = await store.keys.list();
  if (keys.length === 0) {
    const key = newApiKey();
    await createKey(store, key, DEV_KEY_CREDITS, 'dev');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    return { key, created: true };
  }
  if (!fs.existsSync(file)) return null;
  const key = fs.readFileSync(file, 'utf8').trim();
  // Show it only while it still opens the door.
  return key && (await store.keys.findByHash(hashKey(key))) ? { key, created: false } : null;
}

/** Builds everything a node shares: store, bootstrap keys, providers, personas. */
export interface BuildOptions {
  /**
   * Hear the honeypot's voice speak once before the node listens (startup-checks.ts). `voice serve` does;
   * embedders and tests that start many nodes may skip the seconds it costs a cold engine.
   */
  probeVoice?: boolean;
}

export async function buildServices(config: Config, log: Logger, opts: BuildOptions = {}): Promise<Services> {
  checkSettings(config);
  const opened = await openStore(config, log);
  let store: Store = opened;
  const started: Array<{ close?(): Promise<void> } | null> = [];
  try {
    // Session writes to a store across the network go through the node's local journal, so a store outage
    // at session end loses nothing; what the last run left in it is written now, then the sessions it left
    // open are ended.
    store = await recoverSessions(opened, {
      dataDir: config.dataDir,
      nodeId: config.nodeId,
      log,
      journal: opened.kind !== 'embedded',
    });
    await bootstrapKeys(store, config, log);
    // Settled, not all: a provider that failed must not leave the others (the eSpeak child) running.
    const made = await Promise.allSettled([
      createModelProvider(config, log, config.modelFile ? { local: { modelPath: config.modelFile } } : {}),
      createSpeechToText(config, log),
      createTextToSpeech(config, log),
    ]);
    for (const r of made) if (r.status === 'fulfilled') started.push(r.value);
    const [llm, stt, tts] = made.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value;
    }) as [ModelProvider | null, SpeechToText | null, TextToSpeech | null];
    checkModel(config, llm);
    if (opts.probeVoice) await checkVoice(config, tts, PERSONAS[0]!.tts.espeak);
    log.info({ llm: llm?.id ?? 'none', stt: stt?.id ?? 'none', tts: tts?.id ?? 'none' }, 'providers ready');
    warmUpRules();
    const analysis = createAnalysisPool(config, llm, log);
    return instrumentProviders({
      config,
      log,
      store,
      llm,
      stt,
      tts,
      personas: PERSONAS,
      ...(analysis ? { analysis } : {}),
    });
  } catch (err) {
    await Promise.allSettled(started.map((p) => p?.close?.()));
    await store.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Analysis workers hold their own copy of the embedded model, so they serve only a node whose model is
 * that one (or none): a remote model's calls are I/O, and stay on the main thread with their client.
 */
function createAnalysisPool(config: Config, llm: ModelProvider | null, log: Logger): AnalysisPool | null {
  if (config.analysisWorkers === 0) return null;
  if (config.llm === 'local' && llm) {
    const model = config.modelFile ? { modelPath: config.modelFile } : {};
    return new AnalysisPool(config.analysisWorkers, { model }, log);
  }
  if (config.llm === 'none') return new AnalysisPool(config.analysisWorkers, {}, log);
  return null;
}

/** Closes providers and the store; errors are logged, never thrown, so shutdown always completes. */
export async function closeServices(s: Services): Promise<void> {
  const closing = [s.llm, s.stt, s.tts, s.analysis].map((p) => p?.close?.());
  for (const r of await Promise.allSettled(closing)) {
    if (r.status === 'rejected') s.log.warn({ err: r.reason as unknown }, 'provider close failed');
  }
  try {
    await s.store.close();
  } catch (err) {
    s.log.warn({ err }, 'store close failed');
  }
}
