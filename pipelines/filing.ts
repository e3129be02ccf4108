import { complaintComment } from '../src/domain/complaint.js';
import { filingDecision, type Product } from '../src/domain/filing.js';
import type { Intel } from '../src/domain/intel.js';
import type { Verdict } from '../src/domain/verdict.js';
import type { SessionStore } from './ports.js';
import { uuidv7 } from '../src/util/uuid7.js';

export interface FilingInput {
  sessionId: string;
  keyId: string;
  product: Product;
  /** The caller asked for filing (`report=true`). */
  report: boolean;
  verdict: Verdict;
  /** Caller number; filed only when it is E.164 with a leading `+`. */
  from: string | undefined;
  intel: Intel;
  /** Filing time (RFC 3339); injected so tests and replays are deterministic. */
  now: string;
}

export interface FilingResult {
  reported: boolean;
  reported_numbers: number;
}

/**
 * Files one complaint per number when the spec's filing conditions hold.
 * The store makes a second filing of the same number for the same session a no-op, so a replay files nothing twice.
 */
export async function fileComplaints(
  store: Pick<SessionStore, 'complaints'>,
  input: FilingInput,
): Promise<FilingResult> {
  const numbers = filingDecision(input.product, input.report, input.verdict, input.from, input.intel);
  if (numbers.length === 0 || input.verdict.category === 'none') return { reported: false, reported_numbers: 0 };
  const subject = input.verdict.category;
  const comment = complaintComment(input.verdict, input.intel);
  for (const number of numbers) {
    await store.complaints.file({
      id: uuidv7(),
      number,
      session_id: input.sessionId,
      key_id: input.keyId,
      subject,
      comment,
      filed_at: input.now,
    });
  }
  // A replayed session (the store ignores the second filing) still reports what was filed for it.
  return { reported: true, reported_numbers: numbers.length };
}
