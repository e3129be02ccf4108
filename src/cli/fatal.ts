import type { Logger } from '../log.js';

/**
 * Anything thrown out of every handler ends the process, as Node would, but as one JSON log line at
 * `fatal` (with the stack in `err`) instead of a raw trace on stderr that log pipelines cannot parse.
 * pino's stdout destination writes synchronously, so the line is out before the exit.
 */
export function exitOnFatal(log: Logger, exit: (code: number) => void = (c) => process.exit(c)): void {
  const fatal = (kind: string) => (err: unknown) => {
    try {
      log.fatal({ err, kind }, `${kind}: exiting`);
      log.flush?.();
    } finally {
      exit(1);
    }
  };
  process.on('uncaughtException', fatal('uncaught exception'));
  process.on('unhandledRejection', fatal('unhandled rejection'));
}
