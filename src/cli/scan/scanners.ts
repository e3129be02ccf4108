/*
 * The two ways `voice scan` scores a file: against a node over HTTP (the client kit), or in this
 * process with services built from the embedded defaults (the same scan pipeline the node runs).
 */
import fs from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runScan, transcriptUtterances } from '../../../pipelines/scan/pipeline.js';
import { transcribeScanAudio } from '../../../pipelines/scan/audio.js';
import { buildServices, closeServices } from '../../boot.js';
import { VoiceClient } from '../../client/index.js';
import type { Config } from '../../config.js';
import type { Intel } from '../../domain/intel.js';
import type { Verdict } from '../../domain/verdict.js';
import { createLogger } from '../../log.js';
import { scanAudioHttpError } from '../../server/routes/scan-audio-errors.js';
import { HttpError } from '../../server/types.js';
import { pipelinePorts } from '../../services.js';
import { readTranscript, type InputFile } from './inputs.js';
import { withRetryAfter, type RetryPolicy } from './retry.js';

export interface ScanOutcome {
  session_id: string;
  verdict: Verdict;
  intel: Intel;
  /** What was scored, one `speaker: text` line per utterance (for audio: what the recogniser heard). */
  transcript: string;
  reported: boolean;
}

export interface RawAudio {
  encoding: 'pcm16' | 'mulaw';
  sampleRate?: number;
}

export interface FileScanner {
  scan(file: InputFile, signal: AbortSignal): Promise<ScanOutcome>;
  close(): Promise<void>;
}

export interface ScanSettings {
  raw?: RawAudio;
  language?: string;
  /** Node mode only: file complaints for scam verdicts (needs `from`). */
  report?: boolean;
  from?: string;
}

/** Scores files on a node through its HTTP API, waiting out its rate limits as `retry` allows. */
export function nodeScanner(url: string, key: string, settings: ScanSettings, retry: RetryPolicy): FileScanner {
  const client = new VoiceClient({ url, key });
  const scanOnce = nodeScanOnce(client, settings);
  return {
    scan: (file, signal) => withRetryAfter(() => scanOnce(file, signal), signal, retry),
    close: async () => undefined,
  };
}

function nodeScanOnce(client: VoiceClient, settings: ScanSettings): FileScanner['scan'] {
  const common = {
    ...(settings.language ? { language: settings.language } : {}),
    ...(settings.from ? { from: settings.from } : {}),
    ...(settings.report ? { report: true } : {}),
  };
  return async (file, signal) => {
    if (file.type === 'text') return client.scan({ transcript: await readTranscript(file.path), ...common }, signal);
    const audio = await readFile(file.path);
    if (file.type === 'raw') {
      const raw = requireRaw(settings);
      return client.scan(
        { audio, encoding: raw.encoding, ...(raw.sampleRate ? { sample_rate: raw.sampleRate } : {}), ...common },
        signal,
      );
    }
    // WAV is read as is; other containers are recognised by their bytes on the node.
    return client.scan({ audio, encoding: 'wav', ...common }, signal);
  };
}

/**
 * Scores files in this process: the node's own providers and scan pipeline on a throw-away store (the
 * results go to the output files, not to a node's sessions), speech synthesis off.
 */
export async function localScanner(base: Config, settings: ScanSettings): Promise<FileScanner> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-scan-'));
  const config: Config = { ...base, dataDir, tts: 'none', bootstrapKeys: [] };
  delete config.mongodbUrl;
  const services = await buildServices(config, createLogger('warn'));
  const ports = pipelinePorts(services);
  const keyId = 'voice-scan-cli';
  return {
    async scan(file, signal) {
      let utterances;
      let audioSeconds: number | undefined;
      if (file.type === 'text') {
        utterances = transcriptUtterances(await readTranscript(file.path));
      } else {
        const raw = file.type === 'raw' ? requireRaw(settings) : undefined;
        const heard = await transcribeScanAudio(
          ports,
          {
            bytes: await readFile(file.path),
            encoding: raw?.encoding ?? 'wav',
            field: 'audio',
            ...(raw?.sampleRate ? { sampleRate: raw.sampleRate } : {}),
            ...(settings.language ? { language: settings.language } : {}),
          },
          signal,
        );
        utterances = heard.utterances;
        audioSeconds = heard.seconds;
      }
      const r = await runScan(
        ports,
        {
          keyId,
          utterances,
          report: false,
          ...(settings.language ? { language: settings.language } : {}),
          ...(audioSeconds !== undefined ? { audioSeconds } : {}),
        },
        signal,
      );
      return {
        session_id: r.session_id,
        verdict: r.verdict,
        intel: r.intel,
        transcript: r.transcript,
        reported: r.reported,
      };
    },
    async close() {
      await closeServices(services);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function requireRaw(settings: ScanSettings): RawAudio {
  if (!settings.raw) throw new Error('raw audio needs --encoding pcm16|mulaw (and --sample-rate for pcm16)');
  return settings.raw;
}

/** A scan failure as one short line (the service's HTTP errors keep their status). */
export function failureText(err: unknown): string {
  // A file's unreadable audio reads as the service would answer it (400), whether scanned here or there.
  const e = scanAudioHttpError(err);
  if (e instanceof HttpError) return `${e.status}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}
