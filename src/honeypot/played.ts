/**
 * What the caller heard of a persona line cut off by barge-in: the words whose share of the text fits the
 * share of its audio that was sent, then an ellipsis. Speech runs at a roughly even pace, so characters
 * stand in for time. Nothing when not one whole word went out.
 */
export function playedText(text: string, sentBytes: number, totalBytes: number): string {
  if (totalBytes <= 0 || sentBytes >= totalBytes) return text;
  const reach = Math.floor((Math.max(0, sentBytes) / totalBytes) * text.length);
  const words = text.split(/\s+/).filter(Boolean);
  const kept: string[] = [];
  let at = 0;
  for (const w of words) {
    const end = text.indexOf(w, at) + w.length;
    if (end > reach) break;
    kept.push(w);
    at = end;
  }
  return kept.length === 0 ? '' : `${kept.join(' ').replace(/[\s,;:.!?…-]+$/u, '')}…`;
}
