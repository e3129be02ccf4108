/** An HTTP error answer (or a refused socket upgrade): its status and the service's message. */
export class VoiceApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The answer's `Retry-After` in seconds (429, 503), when it gave one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status}: ${message}`);
    this.name = 'VoiceApiError';
  }
}

/** `Retry-After` as seconds: the delay form only (the service never sends a date); undefined otherwise. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

/** The `message` of an error body, or the raw text when the body is not the service's JSON shape. */
export function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: fall through to the text
  }
  return body.slice(0, 200) || 'no message';
}
