/*
 * The chat port: free-form replies for the honeypot persona's dialogue.
 * Unlike the scoring port it returns plain text; the persona's system prompt and the running
 * conversation come from the caller of `reply`. The adapter is picked at boot in `index.ts`.
 */

export interface ChatTurn {
  role: 'user' | 'assistant';
  text: string;
}

export interface ChatModel {
  /** `<provider>:<model>`. */
  readonly id: string;
  /** One assistant reply to the conversation so far. Rejects with ProviderError on refusal, timeout or abort. */
  reply(system: string, turns: ChatTurn[], signal: AbortSignal): Promise<string>;
}

export interface ChatOptions {
  /** Upper bound of one reply, in ms (default 8000: a persona must answer before the caller gives up). */
  timeoutMs?: number;
}
