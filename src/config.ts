import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MAX_LIVE_SESSIONS } from './domain/limits.js';
import { DEFAULT_DRAIN_SECONDS } from './domain/shutdown.js';
import { loadTuning, TuningError, type Tuning } from './tuning.js';

export type Feature = 'scan' | 'live_filter' | 'honeypot';
export const FEATURES: readonly Feature[] = ['scan', 'live_filter', 'honeypot'];

export interface Config {
  host: string;
  port: number;
  /** Base the service prints for itself (e.g. `https://voice.example.com`); undefined: derived per request. */
  publicUrl?: string;
  dataDir: string;
  mongodbUrl?: string;
  maxSessions: number;
  features: ReadonlySet<Feature>;
  bootstrapKeys: ReadonlyArray<{ key: string; credits: number }>;
  webhookAllowPrivate: boolean;
  stt: 'auto' | 'aws' | 'whisper' | 'sphinx' | 'none' | 'replay';
  llm: 'local' | 'bedrock' | 'openai' | 'none';
  tts: 'espeak' | 'polly' | 'none';
  bedrockModelId: string;
  openaiBaseUrl?: string;
  openaiModel: string;
  openaiApiKey?: string;
  whisperUrl?: string;
  /** The embedded model's file for VOICE_LLM=local (VOICE_MODEL_FILE); absent: models/scamlr-v1.json. */
  modelFile?: string;
  /** Model name sent to the transcription server (VOICE_WHISPER_MODEL). */
  whisperModel: string;
  /** Bearer token for the transcription server (VOICE_WHISPER_API_KEY); never logged. */
  whisperApiKey?: string;
  /** Calls the embedded recogniser transcribes at once (VOICE_STT_MAX_CALLS). */
  sttMaxCalls: number;
  /** The embedded recogniser's search: `accurate` (its defaults) or `fast` (VOICE_SPHINX_SEARCH). */
  sphinxSearch: 'accurate' | 'fast';
  pollyVoice?: string;
  sipHost: string;
  sipPort: number;
  /** 0 disables the SIP entry point. */
  sipEnabled: boolean;
  sipRtpTimeoutSeconds: number;
  /** UDP ports the SIP entry point's RTP takes (VOICE_SIP_RTP_PORTS, `min-max`); absent: 10000-20000. */
  sipRtpPorts?: { min: number; max: number };
  /**
   * Trunk peers (VOICE_SIP_MEDIA_PEERS: addresses or CIDR blocks) whose media may come from and go to an
   * address other than the signalling's; empty: media only with the host that signalled.
   */
  sipMediaPeers?: readonly string[];
  /** The address written in Contact and SDP (VOICE_SIP_PUBLIC_ADDRESS), behind NAT or in a container. */
  sipPublicAddress?: string;
  metricsPort?: number;
  logLevel: string;
  /** Names this node's open sessions in the store (VOICE_NODE_ID; default host:port). */
  nodeId: string;
  drainSeconds: number;
  /** How long a live session's record stays `open` without its node renewing it (VOICE_SESSION_LEASE_SECONDS). */
  sessionLeaseSeconds?: number;
  rateLimitPerMinute: number;
  /** Worker threads analysing whole calls off the main thread (VOICE_ANALYSIS_WORKERS; 0: none). */
  analysisWorkers: number;
  /**
   * Behind a load balancer: take the client address from the last `X-Forwarded-For` entry (the one the
   * balancer appended) or its PROXY protocol header, for per-address rate limits and logs (VOICE_TRUST_PROXY).
   */
  trustProxy?: boolean;
  /** Operator knobs: VAD and segmentation, default persona (src/tuning.ts, docs/tuning.md). */
  tuning?: Tuning;
  /** Ended sessions older than this many days are purged (VOICE_RETENTION_DAYS); absent: kept. */
  retentionDays?: number;
  /**
   * Secrets that verify keyless vendor socket upgrades (VOICE_VENDOR_A_AUTH_TOKENS, VOICE_VENDOR_B_PUBLIC_KEYS;
   * docs/vendors.md). Without them every upgrade needs a key.
   */
  vendorAAuthTokens?: readonly string[];
  vendorBPublicKeys?: readonly string[];
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function int(env: Env, name: string, dflt: number, min: number, max: number): number {
  const raw = str(env, name);
  if (raw === undefined) return dflt;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** One core stays the main thread's (live calls, HTTP); up to four more analyse. A one-core node has none. */
function defaultAnalysisWorkers(): number {
  return Math.max(0, Math.min(4, os.availableParallelism() - 1));
}

function bool(env: Env, name: string, dflt: boolean): boolean {
  const raw = str(env, name)?.toLowerCase();
  if (raw === undefined) return dflt;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], dflt: T): T {
  const raw = str(env, name)?.toLowerCase();
  if (raw === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

function url(env: Env, name: string, schemes: readonly string[]): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, `not a URL: "${raw}"`);
  }
  if (!schemes.includes(parsed.protocol.replace(':', ''))) {
    throw new ConfigError(name, `scheme must be ${schemes.join(' or ')}`);
  }
  return raw.replace(/\/+$/, '');
}

/** A value sent as-is in a header or form field: printable ASCII, no spaces; the value is never echoed. */
function token(env: Env, name: string, max: number): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  if (raw.length > max || !/^[\x21-\x7e]+$/.test(raw))
    throw new ConfigError(name, `expected up to ${max} printable characters without spaces`);
  return raw;
}

function features(env: Env): Set<Feature> {
  const raw = str(env, 'VOICE_FEATURES');
  if (raw === undefined) return new Set(FEATURES);
  const out = new Set<Feature>();
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    if (!(FEATURES as readonly string[]).includes(item)) {
      throw new ConfigError('VOICE_FEATURES', `unknown feature "${item}" (allowed: ${FEATURES.join(', ')})`);
    }
    out.add(item as Feature);
  }
  return out;
}

function bootstrapKeys(env: Env): Array<{ key: string; credits: number }> {
  const raw = str(env, 'VOICE_BOOTSTRAP_KEYS');
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const at = item.lastIndexOf(':');
      const key = at > 0 ? item.slice(0, at) : '';
      const credits = at > 0 ? item.slice(at + 1) : '';
      if (!/^[A-Za-z0-9_.-]{8,200}$/.test(key) || !/^\d+$/.test(credits)) {
        throw new ConfigError('VOICE_BOOTSTRAP_KEYS', 'expected comma-separated key:credits, key 8+ of [A-Za-z0-9_.-]');
      }
      return { key, credits: Number(credits) };
    });
}

/** Comma-separated secrets; the values never appear in an error message. */
function secretList(env: Env, name: string, problem?: (item: string) => string | undefined): string[] | undefined {
  const items = str(env, name)
    ?.split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (!items?.length) return undefined;
  for (const item of items) {
    const p = problem?.(item);
    if (p) throw new ConfigError(name, p);
  }
  return items;
}

/** `min-max` (inclusive, at least two ports), or `0` for ports the OS picks. */
function portRange(env: Env, name: string, dflt: { min: number; max: number }): { min: number; max: number } {
  const raw = str(env, name);
  if (raw === undefined) return dflt;
  if (raw === '0') return { min: 0, max: 0 };
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(raw);
  const min = Number(m?.[1]);
  const max = Number(m?.[2]);
  if (!m || min < 1024 || max > 65535 || max - min < 1) {
    throw new ConfigError(name, `expected min-max within 1024-65535 (or 0), got "${raw}"`);
  }
  return { min, max };
}

/** Comma-separated IP addresses or CIDR blocks (`203.0.113.0/24`, `2001:db8::/32`). */
function addressBlocks(env: Env, name: string): string[] {
  const raw = str(env, name);
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((item) => {
      const [address = '', prefix, extra] = item.split('/');
      const version = net.isIP(address);
      const bits = version === 6 ? 128 : 32;
      if (
        version === 0 ||
        extra !== undefined ||
        (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))
      ) {
        throw new ConfigError(name, `expected comma-separated IP addresses or CIDR blocks, got "${item}"`);
      }
      return item;
    });
}

/** One IP address other hosts can reach: not a name, not unspecified, not multicast. */
function publicAddress(env: Env, name: string): string | undefined {
  const raw = str(env, name);
  if (raw === undefined) return undefined;
  const version = net.isIP(raw);
  if (
    version === 0 ||
    raw === '0.0.0.0' ||
    /^::?$/.test(raw) ||
    (version === 4 ? Number(raw.split('.')[0]) >= 224 : /^ff/i.test(raw))
  ) {
    throw new ConfigError(name, `expected the unicast IP address callers reach this node at, got "${raw}"`);
  }
  return raw;
}

function tuning(env: Env): Tuning {
  try {
    return loadTuning(env);
  } catch (e) {
    if (e instanceof TuningError) throw new ConfigError(e.variable, e.message.slice(e.variable.length + 2));
    throw e;
  }
}

export function loadConfig(env: Env = process.env): Config {
  const sipPort = int(env, 'VOICE_SIP_PORT', 5080, 0, 65535);
  const port = int(env, 'VOICE_PORT', 8080, 0, 65535);
  const metricsPort = str(env, 'VOICE_METRICS_PORT');
  return {
    host: str(env, 'VOICE_HOST') ?? '0.0.0.0',
    port,
    publicUrl: url(env, 'VOICE_PUBLIC_URL', ['http', 'https']),
    dataDir: path.resolve(str(env, 'VOICE_DATA_DIR') ?? './data'),
    mongodbUrl: url(env, 'MONGODB_URL', ['mongodb', 'mongodb+srv']),
    maxSessions: int(env, 'VOICE_MAX_SESSIONS', MAX_LIVE_SESSIONS, 1, 100000),
    features: features(env),
    bootstrapKeys: bootstrapKeys(env),
    webhookAllowPrivate: bool(env, 'VOICE_WEBHOOK_ALLOW_PRIVATE', false),
    stt: oneOf(env, 'VOICE_STT', ['auto', 'aws', 'whisper', 'sphinx', 'none', 'replay'] as const, 'auto'),
    llm: oneOf(env, 'VOICE_LLM', ['local', 'bedrock', 'openai', 'none'] as const, 'local'),
    tts: oneOf(env, 'VOICE_TTS', ['espeak', 'polly', 'none'] as const, 'espeak'),
    bedrockModelId: str(env, 'VOICE_BEDROCK_MODEL_ID') ?? 'anthropic.claude-3-haiku-20240307-v1:0',
    openaiBaseUrl: url(env, 'VOICE_OPENAI_BASE_URL', ['http', 'https']),
    openaiModel: str(env, 'VOICE_OPENAI_MODEL') ?? 'default',
    openaiApiKey: str(env, 'VOICE_OPENAI_API_KEY'),
    whisperUrl: url(env, 'VOICE_WHISPER_URL', ['http', 'https']),
    modelFile: str(env, 'VOICE_MODEL_FILE') && path.resolve(str(env, 'VOICE_MODEL_FILE')!),
    whisperModel: token(env, 'VOICE_WHISPER_MODEL', 200) ?? 'whisper-1',
    whisperApiKey: token(env, 'VOICE_WHISPER_API_KEY', 500),
    sttMaxCalls: int(env, 'VOICE_STT_MAX_CALLS', 3 * os.availableParallelism(), 1, 10_000),
    sphinxSearch: oneOf(env, 'VOICE_SPHINX_SEARCH', ['accurate', 'fast'] as const, 'accurate'),
    pollyVoice: str(env, 'VOICE_POLLY_VOICE'),
    sipHost: str(env, 'VOICE_SIP_HOST') ?? '0.0.0.0',
    sipPort,
    sipEnabled: sipPort !== 0,
    sipRtpTimeoutSeconds: int(env, 'VOICE_SIP_RTP_TIMEOUT', 30, 1, 3600),
    sipRtpPorts: portRange(env, 'VOICE_SIP_RTP_PORTS', { min: 10000, max: 20000 }),
    sipMediaPeers: addressBlocks(env, 'VOICE_SIP_MEDIA_PEERS'),
    sipPublicAddress: publicAddress(env, 'VOICE_SIP_PUBLIC_ADDRESS'),
    metricsPort: metricsPort === undefined ? undefined : int(env, 'VOICE_METRICS_PORT', 9464, 0, 65535),
    logLevel: oneOf(
      env,
      'VOICE_LOG_LEVEL',
      ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const,
      'info',
    ),
    // Stable across restarts (so a restarted node can close what it left open), distinct per node on one host.
    nodeId: str(env, 'VOICE_NODE_ID') ?? `${os.hostname()}:${port}`,
    drainSeconds: int(env, 'VOICE_DRAIN_SECONDS', DEFAULT_DRAIN_SECONDS, 0, 3600),
    sessionLeaseSeconds: int(env, 'VOICE_SESSION_LEASE_SECONDS', 30, 3, 3600),
    rateLimitPerMinute: int(env, 'VOICE_RATE_LIMIT', 600, 1, 1000000),
    analysisWorkers: int(env, 'VOICE_ANALYSIS_WORKERS', defaultAnalysisWorkers(), 0, 64),
    trustProxy: bool(env, 'VOICE_TRUST_PROXY', false),
    tuning: tuning(env),
    retentionDays: str(env, 'VOICE_RETENTION_DAYS') ? int(env, 'VOICE_RETENTION_DAYS', 0, 1, 36_500) : undefined,
    vendorAAuthTokens: secretList(env, 'VOICE_VENDOR_A_AUTH_TOKENS'),
    vendorBPublicKeys: secretList(env, 'VOICE_VENDOR_B_PUBLIC_KEYS', (k) =>
      Buffer.from(k, 'base64').length === 32 && Buffer.from(k, 'base64').toString('base64') === k
        ? undefined
        : 'expected base64 ed25519 public keys (32 bytes each)',
    ),
  };
}
