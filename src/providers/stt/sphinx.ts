/*
 * CMU PocketSphinx as the embedded recogniser. It takes utterances cut by the VAD (silence is never
 * decoded) and decodes them on a few warm processes shared by every call (sphinx-pool.ts); how many
 * calls it transcribes at once is a separate, CPU-bound limit (call-slots.ts).
 *
 * Telephone audio (8 kHz at the source) has no energy above 4 kHz; the acoustic model's initial
 * cepstral means assume wideband speech, which makes the first seconds of a call unrecognisable until
 * the live normalisation adapts. For such audio the recogniser starts from telephone-band means.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { concatMap, filter, map, Observable } from 'rxjs';
import type { Logger } from '../../log.js';
import { isExecutable, isReadable } from '../../util/files.js';
import { suppressNoise } from '../../audio/denoise.js';
import { bandFill } from './band-fill.js';
import { createCallSlots } from './call-slots.js';
import { DECODER_ARGS, languageModel, TELEPHONE_FRONT_END } from './sphinx-model.js';
import { SphinxPool } from './sphinx-pool.js';
import type { SpeechToText, SttOptions, SttResult } from './types.js';

export interface SphinxInstall {
  binary: string;
  /** `pocketsphinx_batch`, which decodes named utterance files on a warm model. */
  batchBinary: string;
  /** Acoustic model directory (holds mdef, means, feat.params …). */
  hmm: string;
  lm: string;
  dict: string;
  /** Model name shown in the provider id. */
  model: string;
}

const MODEL_ROOT = '/usr/share/pocketsphinx/model';
/** Cepstral means of telephone-band speech as this model sees it (measured on 8 kHz calls). */
export const TELEPHONE_CMN = '56,32,-40,42,-33,15,-10,-22,7,-17,7,-8,-1';

/**
 * Finds the recogniser, Debian's US English acoustic model (`pocketsphinx` + `pocketsphinx-en-us`), and the
 * call language model shipped in this repository (sphinx-model.ts; Debian's general one when it is missing).
 */
export function detectSphinx(env: Record<string, string | undefined> = process.env): SphinxInstall | null {
  const binary = (env.PATH ?? '/usr/bin')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'pocketsphinx_continuous'))
    .find(isExecutable);
  const batchBinary = binary && path.join(path.dirname(binary), 'pocketsphinx_batch');
  if (!binary || !batchBinary || !isExecutable(batchBinary)) return null;
  const root = path.join(MODEL_ROOT, 'en-us');
  const { lm, dict, name } = languageModel();
  const install = { binary, batchBinary, hmm: path.join(root, 'en-us'), lm, dict, model: name };
  const files = [path.join(install.hmm, 'mdef'), path.join(install.hmm, 'feat.params'), install.lm, install.dict];
  return files.every(isReadable) ? install : null;
}

/** Below this source rate the audio is treated as telephone band. */
const NARROWBAND_MAX_RATE = 11_025;

/**
 * Search settings that cut the decoder's CPU by about half (VOICE_SPHINX_SEARCH=fast; bench/RESULTS.md):
 * no second (flat-lexicon) pass, tighter limits on active HMMs and word exits per frame, and phone-loop
 * lookahead pruning. They cost some words (spoken digits especially), so they are not the default.
 */
export const SPEED_ARGS: readonly string[] = [
  '-fwdflat',
  'no',
  '-maxhmmpf',
  '3000',
  '-maxwpf',
  '5',
  '-pl_window',
  '10',
];

export interface SphinxOptions {
  /**
   * Calls transcribed at once (VOICE_STT_MAX_CALLS). A call beyond it is told so (`session.error`) and
   * admitted when one frees. Default: 3 per CPU (bench/RESULTS.md, "Audio calls per node").
   */
  maxCalls?: number;
  /** Warm decoder processes (about 110 MB each). Default: one per CPU. */
  decoders?: number;
  /** Search settings added to the decoder's; default none (its own, most accurate). */
  searchArgs?: readonly string[];
}

export function createSphinx(install: SphinxInstall, log: Logger, options: SphinxOptions = {}): SpeechToText {
  const cores = os.availableParallelism();
  const size = options.decoders ?? cores;
  // The model's own feature parameters win over command-line flags, so telephone tuning needs its own file.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sphinx-'));
  const telephoneParams = path.join(dir, 'feat.params');
  const params = readFileSync(path.join(install.hmm, 'feat.params'), 'utf8');
  writeFileSync(telephoneParams, params.replace(/^-cmninit .*$/m, `-cmninit ${TELEPHONE_CMN}`));
  const id = `sphinx:${install.model}`;
  const model = ['-hmm', install.hmm, '-lm', install.lm, '-dict', install.dict, ...DECODER_ARGS];
  const search = options.searchArgs ?? [];
  // One pool per front end (wideband, telephone band), each started on its first utterance.
  const pools = new Map<string, SphinxPool>();
  const pool = (sampleRate: number, narrowband: boolean): SphinxPool => {
    const key = `${sampleRate}:${narrowband}`;
    let p = pools.get(key);
    if (!p) {
      // pocketsphinx_batch normalises each utterance by its own cepstral mean (the model's `-cmn batch`),
      // so the telephone means only set where a live decoder would start; the band fill is what keeps
      // the empty upper band (and the digital silence between words) in the range the model knows.
      const means = narrowband && TELEPHONE_FRONT_END.telephoneMeans;
      const frontEnd = ['-samprate', String(sampleRate), ...(means ? ['-featparams', telephoneParams] : [])];
      p = new SphinxPool({ binary: install.batchBinary, args: [...model, ...frontEnd, ...search], size, id, log });
      pools.set(key, p);
    }
    return p;
  };
  const narrow = (sourceRate?: number): boolean => sourceRate !== undefined && sourceRate <= NARROWBAND_MAX_RATE;

  return {
    id,
    sampleRate: 16_000,
    wantsSegments: true,
    slots: createCallSlots(options.maxCalls ?? 3 * cores),
    local: {
      parallel: size,
      estimateSeconds: (speech, sourceRate) => pool(16_000, narrow(sourceRate)).estimateSeconds(speech),
    },
    transcribe(audio$: Observable<Int16Array>, opts: SttOptions): Observable<SttResult> {
      if (opts.language && !/^en\b/i.test(opts.language)) {
        log.debug({ language: opts.language }, 'sphinx: only US English is installed; recognising as English');
      }
      const decoders = pool(opts.sampleRate, narrow(opts.sourceRate));
      const telephone = narrow(opts.sourceRate) && opts.sampleRate === 16_000;
      const fill = telephone ? TELEPHONE_FRONT_END.bandFill : 0;
      const denoise = telephone ? TELEPHONE_FRONT_END.denoise : null;
      return audio$.pipe(
        filter((utterance) => utterance.length > 0),
        concatMap(
          (utterance) =>
            new Observable<string>((out) => {
              const abort = new AbortController();
              // Noise out before the fill goes in; a fresh fill per utterance, so the same utterance
              // always decodes the same way.
              const quiet = denoise ? suppressNoise(utterance, denoise) : utterance;
              const pcm = fill > 0 ? bandFill(fill)(quiet) : quiet;
              decoders.decode(pcm, opts.sampleRate, opts.priority ?? 'live', abort.signal).then(
                (text) => {
                  out.next(text);
                  out.complete();
                },
                (e: unknown) => out.error(e),
              );
              return () => abort.abort();
            }),
        ),
        filter((text) => text !== ''),
        map((text): SttResult => ({ text, final: true })),
      );
    },
    async close() {
      await Promise.all([...pools.values()].map((p) => p.close()));
    },
  };
}
