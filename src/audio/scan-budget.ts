/*
 * Whether this node's own recogniser can transcribe a recording before the scan's time-out, decided
 * before any of it is decoded, so that a recording too long for the node is answered at once with the
 * limit rather than cut off by the time-out after 90 s.
 */

/** Time kept after the transcription for scoring, storing and answering. */
export const SCAN_ANSWER_RESERVE_MS = 15_000;

export interface ScanBudgetInput {
  /** Length of the recording. */
  recordingSeconds: number;
  /** Speech in it (what the recogniser will decode: the VAD drops silence). */
  speechSeconds: number;
  /** Time left for the transcription. */
  budgetSeconds: number;
  /** Seconds the node needs now for this much more speech, behind what it already has queued. */
  estimate(speechSeconds: number): number;
}

export interface ScanBudget {
  fits: boolean;
  /** Longest recording of this kind (same share of speech) the node can transcribe in the budget now. */
  maxRecordingSeconds: number;
}

export function scanBudget(input: ScanBudgetInput): ScanBudget {
  const queued = input.estimate(0);
  const perSpeechSecond = Math.max(1e-6, input.estimate(1) - queued);
  const maxSpeech = Math.max(0, (input.budgetSeconds - queued) / perSpeechSecond);
  const speechShare = input.speechSeconds > 0 ? input.speechSeconds / input.recordingSeconds : 1;
  return {
    fits: input.estimate(input.speechSeconds) <= input.budgetSeconds,
    maxRecordingSeconds: maxSpeech / Math.max(speechShare, 1e-6),
  };
}
