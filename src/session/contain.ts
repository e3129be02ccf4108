/*
 * No error inside one call's streams may end the node. RxJS reports an error nobody handles (a
 * subscriber that throws, an `error` with no handler) by rethrowing it on a later turn of the loop,
 * which ends the process and every live call with it. Here such errors are logged instead; the
 * session they came from is ended by its own actor (see SessionActor.guard and run()).
 */
import { config } from 'rxjs';
import type { Logger } from '../log.js';

/** Routes RxJS's unhandled errors to the log (process-wide; the last node started owns the logger). */
export function containUnhandledErrors(log: Logger): void {
  config.onUnhandledError = (err: unknown) => {
    log.error({ err }, 'unhandled error in a stream; the node goes on');
  };
}
