/*
 * The failure every provider port (model, chat, speech-to-text, text-to-speech) reports in: the session
 * turns it into `session.error`, and `retryable` tells the caller whether the next tick may succeed.
 */

/** A refusal or failure of a provider; its message goes to `session.error.error`. */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
