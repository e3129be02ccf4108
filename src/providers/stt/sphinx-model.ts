/*
 * Which models and decoder settings the embedded recogniser runs with. The acoustic model is Debian's
 * (`pocketsphinx-en-us`); the language model and dictionary are the call model shipped in this
 * repository (models/sphinx/en-us-calls, built by `npm run build-lm`, see docs/speech-model.md), which
 * knows the words scams turn on ("warrant", "gift cards", agencies, payment apps, remote tools). When the
 * call model is missing the general English model is used.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isReadable } from '../../util/files.js';
import type { DenoiseOptions } from '../../audio/denoise.js';
import { BAND_FILL_RMS } from './band-fill.js';

export const GENERAL_MODEL_ROOT = '/usr/share/pocketsphinx/model/en-us';
/** Relative to the repository root. */
export const CALL_MODEL_DIR = path.join('models', 'sphinx', 'en-us-calls');

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface LanguageModel {
  lm: string;
  dict: string;
  /** Shown in the provider id (`sphinx:<name>`). */
  name: string;
}

/** The call model when it is present (source tree or built `dist/`), else Debian's general model. */
export function languageModel(roots: readonly string[] = [REPO_ROOT, path.resolve(REPO_ROOT, '..')]): LanguageModel {
  for (const root of roots) {
    const dir = path.join(root, CALL_MODEL_DIR);
    const lm = path.join(dir, 'calls.lm.bin');
    const dict = path.join(dir, 'calls.dict');
    if (isReadable(lm) && isReadable(dict)) return { lm, dict, name: 'en-us-calls' };
  }
  return {
    lm: path.join(GENERAL_MODEL_ROOT, 'en-us.lm.bin'),
    dict: path.join(GENERAL_MODEL_ROOT, 'cmudict-en-us.dict'),
    name: 'en-us',
  };
}

/**
 * Telephone audio (source ≤ 11 kHz): band-fill noise RMS (0 for none), whether to start from
 * telephone-band cepstral means, and the noise suppression each utterance gets first (null for none).
 * The shared batch decoders normalise each utterance by its own mean (the model's `-cmn batch`), so the
 * means only set where a live decoder would start, and the fill is what keeps the empty upper band and
 * the digital silence between words in the range the model knows: without it eSpeak's "five five five
 * one two" came out "five five five was to" on every search setting tried (docs/speech-model.md). It
 * once cost eSpeak's words on a continuous decoder with live means.
 *
 * Noise suppression (src/audio/denoise.ts) only acts on an utterance whose quietest frames lie within
 * 25 dB of its mean: on a clean line it would measure speech as noise and take some of it away (clean
 * tuning calls lost 1.4 points of word error ungated). On the tuning voices at 15 dB SNR it took pooled
 * word error from 46.9 to 43.5 % with clean calls unchanged, and cost less CPU than it saved in search.
 */
export const TELEPHONE_FRONT_END: {
  bandFill: number;
  telephoneMeans: boolean;
  denoise: DenoiseOptions | null;
} = {
  bandFill: BAND_FILL_RMS,
  telephoneMeans: true,
  denoise: { floor: 0.2, gateDb: 25 },
};

/**
 * Decoder settings beyond the models. No lattice rescoring (`-bestpath`): on band-filled telephone
 * utterances it re-picked the weakest spoken digit ("three four" became "three floor" at the tuned fill
 * level), while the flat pass's own answer kept the digits at every fill level from 80 to 200.
 */
export const DECODER_ARGS: readonly string[] = ['-bestpath', 'no'];
