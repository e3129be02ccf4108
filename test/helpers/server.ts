import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/log.js';
import { startNode, type NodeOptions } from '../../src/node.js';
import type { Services } from '../../src/services.js';

export interface TestServer {
  /** `http://127.0.0.1:PORT` ({api_root}); the voice API is under `${url}/voice`. */
  url: string;
  /** `ws://127.0.0.1:PORT` */
  wsUrl: string;
  port: number;
  /** The metrics listener's port, when VOICE_METRICS_PORT is set (0 picks one). */
  metricsPort?: number;
  /** A key with plenty of credits. */
  key: string;
  /** A second key, for cross-key checks. */
  otherKey: string;
  services: Services;
  config: Config;
  dataDir: string;
  /** Every log line the node wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The raw log output. */
  logText(): string;
  close(): Promise<void>;
}

export const TEST_CREDITS = 1_000_000;

/** Collects pino's JSON lines in memory. */
export function captureLogger(level = 'info'): { log: Logger; lines: Array<Record<string, unknown>>; text(): string } {
  const chunks: string[] = [];
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      const s = chunk.toString();
      chunks.push(s);
      for (const line of s.split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: createLogger(level, sink), lines, text: () => chunks.join('') };
}

/**
 * A real node on 127.0.0.1 and an ephemeral port with a fresh data dir and two keys.
 * Defaults keep it self-contained (no SIP, no network providers); `env` overrides any variable.
 */
export async function startTestServer(env: Record<string, string> = {}, opts: NodeOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-test-'));
  const key = `test_${randomBytes(12).toString('hex')}`;
  const otherKey = `other_${randomBytes(12).toString('hex')}`;
  const config = loadConfig({
    VOICE_HOST: '127.0.0.1',
    VOICE_PORT: '0',
    VOICE_DATA_DIR: dataDir,
    VOICE_SIP_PORT: '0',
    VOICE_STT: 'none',
    VOICE_LLM: 'local',
    VOICE_TTS: 'espeak',
    VOICE_DRAIN_SECONDS: '5',
    VOICE_RATE_LIMIT: '100000',
    VOICE_LOG_LEVEL: 'info',
    VOICE_BOOTSTRAP_KEYS: `${key}:${TEST_CREDITS},${otherKey}:${TEST_CREDITS}`,
    ...env,
  });
  const captured = captureLogger(config.logLevel);
  const node = await startNode(config, captured.log, opts);
  let closed = false;
  return {
    url: `http://127.0.0.1:${node.port}`,
    wsUrl: `ws://127.0.0.1:${node.port}`,
    port: node.port,
    metricsPort: node.metricsPort,
    key,
    otherKey,
    services: node.services,
    config,
    dataDir,
    logs: captured.lines,
    logText: captured.text,
    close: async () => {
      if (closed) return;
      closed = true;
      await node.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
