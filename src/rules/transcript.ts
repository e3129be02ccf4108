import type { Role, Utterance } from '../domain/frames.js';

/**
 * Speaker labels a pasted transcript may carry. Only known labels count as labels, so a line such as
 * "Warning: your account is locked" stays part of the text.
 */
const CALLER_LABELS = new Set(['caller', 'scammer', 'fraudster', 'remote', 'inbound']);
const CALLEE_LABELS = new Set(['callee', 'victim', 'outbound', 'recipient']);
const NEUTRAL_LABELS = new Set([
  'a',
  'b',
  'agent',
  'system',
  'user',
  'customer',
  'speaker',
  'spk',
  'representative',
  'rep',
  'operator',
]);

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
/** Any short capitalised name before a colon ("Harold: …"), a speaker once the transcript is known to be labelled. */
const NAME_LINE = /^\s*([A-Z][A-Za-z'.-]{0,19}(?: [A-Z][A-Za-z'.-]{0,19})?)\s*:\s+(.*)$/;

export function parseTranscript(text: string): Utterance[] {
  const lines = text.split(/\r?\n/);
  // In a transcript with caller/callee labels, other names before a colon are speakers too (a persona, an agent).
  const labelled = lines.some((l) => {
    const m = LABEL_LINE.exec(l);
    const k = m ? labelKind(m[1]!) : null;
    return k === 'caller' || k === 'callee';
  });
  const raw: Array<{ label: string | null; kind: ReturnType<typeof labelKind>; text: string }> = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    const m = LABEL_LINE.exec(line);
    const kind = m ? labelKind(m[1]!) : null;
    const named = !kind && labelled ? NAME_LINE.exec(line) : null;
    if (named) raw.push({ label: named[1]!, kind: 'neutral', text: named[2]!.trim() });
    else if (m && kind) raw.push({ label: m[1]!, kind, text: m[2]!.trim() });
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
      // caller/callee synonyms become the spec's labels; other speakers keep the name they were given.
      const speaker = r.kind === 'caller' || r.kind === 'callee' || !r.label ? role : r.label;
      return { role, speaker, text: r.text, at: i };
    });
}

/** What the caller said, one utterance per line: the only text that is scored. */
export function callerText(utterances: readonly Utterance[]): string {
  return callerLines(utterances).join('\n');
}

/** The caller's utterances from the `from`th utterance of the call on, as text. */
export function callerLines(utterances: readonly Utterance[], from = 0): string[] {
  const lines: string[] = [];
  for (let i = from; i < utterances.length; i++) if (utterances[i]!.role === 'caller') lines.push(utterances[i]!.text);
  return lines;
}

/** The stored transcript: one `speaker: text` line per utterance. */
export function formatTranscript(utterances: readonly Utterance[]): string {
  return utterances.map((u) => `${u.speaker}: ${u.text}`).join('\n');
}
