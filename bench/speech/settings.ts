/*
 * The settings the tuning sweep (tune.ts) can decode with, by name. `shipped` is what the node runs
 * (sphinx-model.ts); the others each change one thing (or a named combination) from it.
 */
import { BAND_FILL_RMS } from '../../src/providers/stt/band-fill.js';
import { DECODER_ARGS, languageModel } from '../../src/providers/stt/sphinx-model.js';
import { TELEPHONE_CMN } from '../../src/providers/stt/sphinx.js';
import type { DecodeSettings } from './decode.js';

const { lm, dict } = languageModel();
const shipped: DecodeSettings = { lm, dict, fill: BAND_FILL_RMS, feat: { cmninit: TELEPHONE_CMN }, args: DECODER_ARGS };
const flags = (...args: string[]): DecodeSettings => ({ ...shipped, args: [...shipped.args, ...args] });
const feat = (f: Record<string, string>): DecodeSettings => ({ ...shipped, feat: { ...shipped.feat, ...f } });

export const SETTINGS: Record<string, DecodeSettings> = {
  shipped,
  'lw 5.5': flags('-lw', '5.5', '-fwdflatlw', '7.5'),
  'lw 7.5': flags('-lw', '7.5', '-fwdflatlw', '9.5'),
  'lw 8.5': flags('-lw', '8.5', '-fwdflatlw', '10.5'),
  'wip 0.2': flags('-wip', '0.2'),
  'wip 2': flags('-wip', '2'),
  'pip 0.5': flags('-pip', '0.5'),
  'pip 2': flags('-pip', '2'),
  'silprob 0.05': flags('-silprob', '0.05'),
  'silprob 0.001': flags('-silprob', '0.001'),
  'fillprob 1e-4': flags('-fillprob', '1e-4'),
  'fillprob 1e-12': flags('-fillprob', '1e-12'),
  'remove_noise no': flags('-remove_noise', 'no'),
  'remove_silence no': flags('-remove_silence', 'no'),
  'varnorm yes': feat({ varnorm: 'yes' }),
  'fill 0': { ...shipped, fill: 0 },
  'fill 90': { ...shipped, fill: 90 },
  'fill 180': { ...shipped, fill: 180 },
  'upperf 3800 nfilt 20, no fill': { ...feat({ upperf: '3800', nfilt: '20' }), fill: 0 },
  'wide beams': flags('-beam', '1e-60', '-wbeam', '1e-40', '-pbeam', '1e-60', '-maxhmmpf', '-1'),
  'topn 6': flags('-topn', '6'),
  'dither yes': flags('-dither', 'yes'),
};
