import type { PipelinePorts } from '../pipelines/ports.js';
import type { AnalysisPool } from './analysis/pool.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import type { Persona } from './honeypot/types.js';
import { createChatModel, type ChatModel } from './providers/llm/index.js';
import type { ModelProvider } from './providers/llm/types.js';
import type { SpeechToText } from './providers/stt/types.js';
import type { TextToSpeech } from './providers/tts/types.js';
import type { Store } from './store/types.js';

/**
 * The node's composition root: everything it shares between requests and sessions, built once at boot
 * (src/boot.ts). Servers and routes are handed it; pipelines get only their ports (`pipelinePorts`).
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

/** One chat model per configuration, made when a honeypot first needs one (most nodes never do). */
const chatModels = new WeakMap<Config, ChatModel | null>();

/** The ports the pipelines are given, from the node's services. */
export function pipelinePorts(s: Services): PipelinePorts {
  const { config } = s;
  return {
    log: s.log,
    store: s.store,
    stt: s.stt,
    llm: s.llm,
    tts: s.tts,
    ...(s.analysis ? { analyzer: s.analysis } : {}),
    ...(config.tuning ? { tuning: config.tuning } : {}),
    nodeId: config.nodeId,
    personas: s.personas,
    chat: () => {
      if (!chatModels.has(config)) chatModels.set(config, createChatModel(config));
      return chatModels.get(config) ?? null;
    },
  };
}
