/*
 * Scan: score one finished call (a transcript, or utterances transcribed from a recording), file it when
 * asked and the verdict is `scam`, and store it as a session of kind `scan`.
 */
import { analyzeCall } from '../analyze.js';
import type { Utterance } from '../../src/domain/frames.js';
import { countIntel, type Intel } from '../../src/domain/intel.js';
import { FINAL_ANALYSIS_MS } from '../../src/domain/limits.js';
import type { StoredSession } from '../../src/domain/session.js';
import type { Verdict } from '../../src/domain/verdict.js';
import { callerText, formatTranscript, parseTranscript } from '../../src/rules/index.js';
import { metrics } from '../../src/observability/metrics.js';
import { withTimeout } from '../../src/util/abort.js';
import { fileComplaints } from '../filing.js';
import type { PortsOf } from '../ports.js';
import { uuidv7 } from '../../src/util/uuid7.js';

export interface ScanJob {
  keyId: string;
  /** The call's lines: parsed from a transcript (`speaker: text` lines allowed) or from the recogniser. */
  utterances: readonly Utterance[];
  from?: string;
  to?: string;
  report: boolean;
  language?: string;
  /** Length of the recording, when the scan was of audio. */
  audioSeconds?: number;
}

export interface ScanResult {
  session_id: string;
  verdict: Verdict;
  intel: Intel;
  transcript: string;
  reported: boolean;
  reported_numbers: number;
}

/** A pasted transcript as utterances: only the caller's words are scored (see `parseTranscript`). */
export function transcriptUtterances(text: string): Utterance[] {
  return parseTranscript(text);
}

/** The ports a scan uses. */
export type ScanPorts = PortsOf<'llm' | 'analyzer' | 'store' | 'log' | 'nodeId'>;

export async function runScan(
  ports: ScanPorts,
  job: ScanJob,
  signal: AbortSignal,
  now: () => Date = () => new Date(),
): Promise<ScanResult> {
  const startedAt = now();
  const sessionId = uuidv7();
  const input = {
    utterances: job.utterances,
    callerText: callerText(job.utterances),
    product: 'scan' as const,
    ...(job.language ? { language: job.language } : {}),
  };
  // The model gets the same bound as a live call's final analysis; the request's own time-out still applies.
  const bounded = withTimeout(signal, FINAL_ANALYSIS_MS);
  const modelFailed = (e: Error): void => {
    // The request ending (the client hung up, or its time ran out) is not a model fault: a line, not a warning.
    if (signal.aborted) {
      ports.log.info(
        { session_id: sessionId, reason: String(signal.reason) },
        'scan: request ended; rules verdict kept',
      );
      return;
    }
    ports.log.warn({ err: e.message, session_id: sessionId }, 'scan: model analysis failed; rules verdict kept');
  };
  const { verdict, intel } = await analyzeCall(ports, input, bounded.signal, modelFailed).finally(bounded.done);
  const endedAt = now();
  const filed = await fileComplaints(ports.store, {
    sessionId,
    keyId: job.keyId,
    product: 'scan',
    report: job.report,
    verdict,
    from: job.from,
    intel,
    now: endedAt.toISOString(),
  });
  if (filed.reported_numbers > 0) metrics.complaintsFiled.inc({ product: 'scan' }, filed.reported_numbers);
  const transcript = formatTranscript(job.utterances);
  const record: StoredSession = {
    id: sessionId,
    kind: 'scan',
    protocol: 'http',
    started_at: startedAt.toISOString(),
    ended_at: endedAt.toISOString(),
    duration_seconds: Math.round(job.audioSeconds ?? 0),
    turns: job.utterances.length,
    transcript,
    score: verdict.score,
    level: verdict.level,
    category: verdict.category,
    intel_count: countIntel(intel),
    reported: filed.reported,
    key_id: job.keyId,
    state: 'ended',
    node_id: ports.nodeId,
    tactics: verdict.tactics,
    signals: verdict.signals,
    intel,
    reported_numbers: filed.reported_numbers,
  };
  if (job.from) record.from = job.from;
  if (job.to) record.to = job.to;
  if (verdict.summary) record.summary = verdict.summary;
  await ports.store.sessions.put(record);
  return { session_id: sessionId, verdict, intel, transcript, ...filed };
}
