/*
 * The embedded model as a ModelProvider: no network, deterministic, about a millisecond per call,
 * so it can score every tick of every live session on the node.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LIKELY_SCAM_AT } from '../../../domain/levels.js';
import type { Assessment } from '../../../domain/verdict.js';
import { WARM_UP_CALL } from '../../../rules/index.js';
import { guardInjection } from '../injection.js';
import { ProviderError, type Analysis, type ModelInput, type ModelProvider } from '../types.js';
import { ArtefactError, LocalModel, type ModelArtefact } from './model.js';

export const MODEL_FILE = 'scamlr-v1.json';

/** models/ at the repository root, from src/ (tsx) or from dist/src/ (built). */
function candidatePaths(): string[] {
  return [
    fileURLToPath(new URL(`../../../../models/${MODEL_FILE}`, import.meta.url)),
    fileURLToPath(new URL(`../../../../../models/${MODEL_FILE}`, import.meta.url)),
  ];
}

export function loadArtefact(file?: string): ModelArtefact {
  const paths = file ? [file] : candidatePaths();
  const found = paths.find((p) => fs.existsSync(p));
  if (!found) throw new ArtefactError(`model file not found (looked in ${paths.join(', ')}): run \`npm run train\``);
  return JSON.parse(fs.readFileSync(found, 'utf8')) as ModelArtefact;
}

export interface LocalOptions {
  /** Path of the model JSON; default models/scamlr-v1.json. */
  modelPath?: string;
}

export function createLocalProvider(options: LocalOptions = {}): ModelProvider {
  const model = new LocalModel(loadArtefact(options.modelPath));
  // The first assessments compile the model's expressions (~30 ms): paid here, at boot, not in a live call.
  for (let i = 0; i < 3; i++) model.assess(WARM_UP_CALL.join(' '));

  function assess(input: ModelInput, signal: AbortSignal): Assessment {
    if (signal.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
    try {
      if (!input.callerText.trim()) return { score: 0, category: 'none', tactics: [], signals: [] };
      return guardInjection(input.callerText, model.assess(input.callerText));
    } catch (err) {
      throw new ProviderError('local', err instanceof Error ? err.message : String(err));
    }
  }

  return {
    id: model.id,
    scoreLive: async (input, signal) => assess(input, signal),
    analyze: async (input, signal): Promise<Analysis> => {
      const a = assess(input, signal);
      // The quoted pitch lines are intel too (`scripts`); the rules add every other kind.
      const scripts =
        a.score >= LIKELY_SCAM_AT ? a.signals.filter((s) => s.startsWith('"')).map((s) => s.slice(1, -1)) : [];
      return { ...a, intel: scripts.length ? { scripts } : {} };
    },
  };
}
