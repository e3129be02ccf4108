/** E.164: a leading `+`, a non-zero country digit, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;

export function isE164(value: unknown): value is string {
  return typeof value === 'string' && E164.test(value);
}
