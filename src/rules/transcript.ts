import type { Role, Utterance } from '../domain/frames.js';

/**
 * Speaker labels a pasted transcript may carry. Only known labels count as labels, so a line such as
 * "Warning: your account is locked" stays part of the text.
 */
const CALLER_LABELS = new Set(['caller', 'scammer', 'fraudster', 'remote', 'inbound']);
const CALLEE_LABELS = new Set(['callee', 'victim', 'outbound', 'recipient']);
const NEUTRAL_LABELS = new Set(['a', 'b', 'agent', 'system', 'user', 'customer', 'speaker', 'spk', 'representative', 'rep', 'operator']);

const LABEL_LINE = /^\s*\[?([A-Za-z]{1,14}(?:[ _-]?\d{1,2})?)\]?\s*:\s*(.*)$/;

function labelKind(label: string): 'caller' | 'callee' | 'neutral' | null {
  const base = label.toLowerCase().replace(/[ _-]?\d+$/, '');
  if (CALLER_LABELS.has(base)) return 'caller';
  if (CALLEE_LABELS.has(base)) return 'callee';
  if (NEUTRAL_LABELS.has(base) || /^(speaker|spk)[ _-]?\d/i.test(label)) return 'neutral';
  return null;
}

/**
 * Splits a transcript into utterances. Who is the caller:
 * - lines labelled `caller` (or a synonym) are the caller's; every other line is not;
 * - with no caller label but a `callee` label, every line not labelled callee is the caller's;
 * - with neither (no labels, or neutral ones such as A:/B:), the whole text is the caller's.
 * An unlabelled line continues the previous speaker's turn.
 */
export function parseTranscript(text: string): Utterance[] {
  const raw: Array<{ label: string | null; kind: ReturnType<typeof labelKind>; text: string }> = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const m = LABEL_LINE.exec(line);
    const kind = m ? labelKind(m[1]!) : null;
    if (m && kind) raw.push({ label: m[1]!, kind, text: m[2]!.trim() });
    else if (raw.length > 0 && raw[raw.length - 1]!.label !== null) raw[raw.length - 1]!.text += ' ' + line.trim();
    else raw.push({ label: null, kind: null, text: line.trim() });
  }
  const hasCaller = raw.some((r) => r.kind === 'caller');
  const hasCallee = raw.some((r) => r.kind === 'callee');
  return raw
    .filter((r) => r.text)
    .map((r, i) => {
      let role: Role = 'caller';
      if (hasCaller) role = r.kind === 'caller' ? 'caller' : 'callee';
      else if (hasCallee) role = r.kind === 'callee' ? 'callee' : 'caller';
      const speaker = r.label ? r.label.toLowerCase() : role;
      return { role, speaker, text: r.text, at: i };
    });
}

/** What the caller said, one utterance per line: the only text that is scored. */
export function callerText(utterances: readonly Utterance[]): string {
  return utterances
    .filter((u) => u.role === 'caller')
    .map((u) => u.text)
    .join('\n');
}

/** The stored transcript: one `speaker: text` line per utterance. */
export function formatTranscript(utterances: readonly Utterance[]): string {
  return utterances.map((u) => `${u.speaker}: ${u.text}`).join('\n');
}
