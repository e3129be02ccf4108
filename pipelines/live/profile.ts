import type { SessionKind } from '../../src/domain/events.js';
import type { Product } from '../../src/domain/filing.js';
import { liveMinutePrice } from '../../src/domain/prices.js';
import {
  FILTER_START_TIMEOUT_MS,
  FILTER_TIME_LIMIT_MS,
  FINAL_ANALYSIS_MS,
  HONEYPOT_START_TIMEOUT_MS,
  HONEYPOT_TIME_LIMIT_MS,
} from '../../src/domain/limits.js';

/** What differs between the two live products; every live stage is parameterised by it. */
export interface LiveProfile {
  kind: SessionKind;
  startTimeoutMs: number;
  timeLimitMs: number;
  /** Filing thresholds and complaint product. */
  filingProduct: Product;
  minutePrice(tracksBoth: boolean): number;
  /** Spec: final analysis may take up to 20 s after the stop. */
  finalAnalysisMs: number;
  /**
   * Time speech-to-text gets after the stop to deliver its last results. Embedded recognisers run behind
   * real time on small machines, so this is generous; it still leaves the 20 s analysis bound its own time.
   */
  flushMs: number;
}

export const LIVE_PROFILES: Readonly<Record<SessionKind, LiveProfile>> = {
  filter: {
    kind: 'filter',
    startTimeoutMs: FILTER_START_TIMEOUT_MS,
    timeLimitMs: FILTER_TIME_LIMIT_MS,
    filingProduct: 'filter',
    minutePrice: (both) => liveMinutePrice('filter', both),
    finalAnalysisMs: FINAL_ANALYSIS_MS,
    flushMs: 15_000,
  },
  honeypot: {
    kind: 'honeypot',
    startTimeoutMs: HONEYPOT_START_TIMEOUT_MS,
    timeLimitMs: HONEYPOT_TIME_LIMIT_MS,
    filingProduct: 'honeypot',
    // The called party is the persona: nothing to transcribe twice.
    minutePrice: () => liveMinutePrice('honeypot', false),
    finalAnalysisMs: FINAL_ANALYSIS_MS,
    flushMs: 15_000,
  },
};
