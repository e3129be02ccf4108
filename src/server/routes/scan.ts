import { probeDuration, transcribeScanAudio } from '../../../pipelines/scan/audio.js';
import { ScanAudioError } from '../../../pipelines/scan/audio-error.js';
import { SCAN_ANSWER_RESERVE_MS } from '../../audio/scan-budget.js';
import { SCAN_BODY_LIMIT, SCAN_TIMEOUT_MS } from '../../domain/limits.js';
import { scanPrice } from '../../domain/prices.js';
import { metrics } from '../../observability/metrics.js';
import { pipelinePorts, type Services } from '../../services.js';
import { runScan, transcriptUtterances } from '../../../pipelines/scan/pipeline.js';
import { HttpError, ok, type Route } from '../types.js';
import { scanAudioHttpError } from './scan-audio-errors.js';
import { parseScanRequest } from './scan-body.js';

/** POST /voice/scan: score a transcript or a recording (spec, POST /scan). */
export function scanRoutes(s: Services): Route[] {
  return [
    {
      method: 'POST',
      path: '/voice/scan',
      auth: 'header',
      bodyLimit: SCAN_BODY_LIMIT,
      timeoutMs: SCAN_TIMEOUT_MS,
      handle: async (req) => {
        const began = Date.now();
        if (!s.config.features.has('scan')) throw new HttpError(503, 'scan is not enabled on this deployment');
        const scan = await parseScanRequest(req);
        const ports = pipelinePorts(s);
        const keyId = req.key!.id;

        let utterances = scan.transcript !== undefined ? transcriptUtterances(scan.transcript) : [];
        let audioSeconds: number | undefined;
        if (scan.audio) {
          const audioInput = {
            bytes: scan.audio.bytes,
            encoding: scan.encoding,
            field: scan.audio.field,
            ...(scan.sampleRate !== undefined ? { sampleRate: scan.sampleRate } : {}),
          };
          // Priced on the decoded length before any transcription is paid for.
          audioSeconds = await probeDuration(audioInput, req.signal).catch((e: unknown) => {
            throw scanAudioHttpError(e);
          });
          const price = scanPrice(audioSeconds);
          if (!(await s.store.keys.debit(keyId, price))) throw new HttpError(402, 'insufficient credits');
          let heard: Awaited<ReturnType<typeof transcribeScanAudio>>;
          try {
            heard = await transcribeScanAudio(
              ports,
              { ...audioInput, ...(scan.language ? { language: scan.language } : {}) },
              req.signal,
              { at: began + SCAN_TIMEOUT_MS - SCAN_ANSWER_RESERVE_MS, timeoutSeconds: SCAN_TIMEOUT_MS / 1000 },
            );
          } catch (e) {
            // Nothing was scored: the caller does not pay for our failure to transcribe.
            await s.store.keys.credit(keyId, price);
            if (e instanceof ScanAudioError && e.kind === 'too_long') {
              metrics.sttRefused.inc({ entry: 'scan' });
              s.log.warn(
                { audio_seconds: Math.round(audioSeconds), answer: e.message },
                'scan: the recording is longer than this node can transcribe in time',
              );
            }
            throw scanAudioHttpError(e);
          }
          utterances = heard.utterances;
          audioSeconds = heard.seconds;
          metrics.creditsCharged.inc({ product: 'scan' }, price);
        } else if (!(await s.store.keys.debit(keyId, scanPrice(undefined)))) {
          throw new HttpError(402, 'insufficient credits');
        } else metrics.creditsCharged.inc({ product: 'scan' }, scanPrice(undefined));

        const result = await runScan(
          ports,
          {
            keyId,
            utterances,
            report: scan.report,
            ...(scan.from ? { from: scan.from } : {}),
            ...(scan.to ? { to: scan.to } : {}),
            ...(scan.language ? { language: scan.language } : {}),
            ...(audioSeconds !== undefined ? { audioSeconds } : {}),
          },
          req.signal,
        );
        return ok({
          session_id: result.session_id,
          verdict: result.verdict,
          intel: result.intel,
          transcript: result.transcript,
          reported: result.reported,
          reported_numbers: result.reported_numbers,
        });
      },
    },
  ];
}
