/*
 * The embedded model as a ModelProvider: no network, deterministic, about a millisecond per call,
 * so it can score every tick of every live session on the node.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LIKELY_SCAM_AT } from '../../../domain/levels.js';
import type { Assessment } from '../../../domain/verdict.js';
import { callerLines, WARM_UP_CALL } from '../../../rules/index.js';
import { guardInjection } from '../injection.js';
import { ProviderError } from '../../errors.js';
import type { Analysis, LiveScorer, ModelInput, ModelProvider } from '../types.js';
import { LiveCall } from './live.js';
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

/** A running call's scorer that keeps the call's view (live.ts) between scores. */
export interface LocalLiveScorer extends LiveScorer {
  /** Adds the caller's next lines and scores the call so far (what an analysis worker is sent). */
  scoreLines(lines: readonly string[]): Assessment;
}

export interface LocalProvider extends ModelProvider {
  openLive(): LocalLiveScorer;
}

export function createLocalProvider(options: LocalOptions = {}): LocalProvider {
  const model = new LocalModel(loadArtefact(options.modelPath));
  // The first assessments compile the model's expressions (~30 ms): paid here, at boot, not in a live call;
  // the live view's own (its resumable scans) with them.
  for (let i = 0; i < 3; i++) {
    model.assess(WARM_UP_CALL.join(' '));
    const live = new LiveCall(model);
    for (const line of WARM_UP_CALL) live.append([line]);
    live.assess();
  }

  function assess(input: ModelInput, signal: AbortSignal): Assessment {
    checkAborted(signal);
    return failing(() =>
      input.callerText.trim()
        ? guardInjection(input.callerText, model.assess(input.callerText))
        : { score: 0, category: 'none', tactics: [], signals: [] },
    );
  }

  function openLive(): LocalLiveScorer {
    const call = new LiveCall(model);
    let seen = 0;
    const scoreLines = (lines: readonly string[]): Assessment =>
      failing(() => {
        call.append(lines);
        return call.assess();
      });
    return {
      scoreLines,
      score: async (input, signal) => {
        checkAborted(signal);
        const lines = callerLines(input.utterances, seen);
        seen = input.utterances.length;
        return scoreLines(lines);
      },
      close: () => {},
    };
  }

  return {
    id: model.id,
    scoreLive: async (input, signal) => assess(input, signal),
    openLive,
    analyze: async (input, signal): Promise<Analysis> => {
      const a = assess(input, signal);
      // The quoted pitch lines are intel too (`scripts`); the rules add every other kind.
      const scripts =
        a.score >= LIKELY_SCAM_AT ? a.signals.filter((s) => s.startsWith('"')).map((s) => s.slice(1, -1)) : [];
      return { ...a, intel: scripts.length ? { scripts } : {} };
    },
  };
}

function checkAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** A model failure as the provider's refusal. */
function failing<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    throw new ProviderError('local', err instanceof Error ? err.message : String(err));
  }
}
