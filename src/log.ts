import { pino, type Logger } from 'pino';

export type { Logger };

/** API keys ride in headers and query strings; none of those paths may reach a log line. */
const REDACT = [
  'key',
  '*.key',
  'apiKey',
  '*.apiKey',
  'headers["x-auth"]',
  '*.headers["x-auth"]',
  'headers["x-service-key"]',
  '*.headers["x-service-key"]',
  'query.key',
  '*.query.key',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: { svc: 'voice' }, redact: { paths: REDACT, censor: '[redacted]' } }, destination);
}

/** Removes `key=` values from a URL or query string before it is logged. */
export function scrubKey(text: string): string {
  return text.replace(/([?&]key=)[^&#]*/gi, '$1[redacted]');
}
