import type { AnalysisPool } from './analysis/pool.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import type { Persona } from './honeypot/types.js';
import type { ModelProvider } from './providers/llm/types.js';
import type { SpeechToText } from './providers/stt/types.js';
import type { TextToSpeech } from './providers/tts/types.js';
import type { Store } from './store/types.js';

/**
 * Everything a node shares between requests and sessions, built once at boot (src/main.ts).
 * Providers are null when switched off or unavailable; `capabilities` reports which.
 */
export interface Services {
  config: Config;
  log: Logger;
  store: Store;
  llm: ModelProvider | null;
  stt: SpeechToText | null;
  tts: TextToSpeech | null;
  personas: readonly Persona[];
  /** Worker threads for whole-call analysis (scans, ended live calls); absent: analysed on the main thread. */
  analysis?: AnalysisPool;
}
