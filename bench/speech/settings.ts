/*
 * The settings the tuning sweep (tune.ts) can decode with, by name. `shipped` is what the node runs
 * (sphinx-model.ts); the others each change one thing (or a named combination) from it. Rows below
 * `no denoise` were measured before telephone noise suppression shipped, and are relative to it.
 */
import { suppressNoise } from '../../src/audio/denoise.js';
import { DECODER_ARGS, languageModel, TELEPHONE_FRONT_END } from '../../src/providers/stt/sphinx-model.js';
import { TELEPHONE_CMN } from '../../src/providers/stt/sphinx.js';
import type { DecodeSettings } from './decode.js';

const { lm, dict } = languageModel();
const front = TELEPHONE_FRONT_END;
const denoise = front.denoise;
const shipped: DecodeSettings = {
  lm,
  dict,
  fill: front.bandFill,
  feat: front.telephoneMeans ? { cmninit: TELEPHONE_CMN } : {},
  args: DECODER_ARGS,
  ...(denoise ? { pre: (u: Int16Array) => suppressNoise(u, denoise) } : {}),
};
const { pre: _, ...plain } = shipped;
const flags = (...args: string[]): DecodeSettings => ({ ...plain, args: [...plain.args, ...args] });
const feat = (f: Record<string, string>): DecodeSettings => ({ ...plain, feat: { ...plain.feat, ...f } });
const suppressed =
  (o: Parameters<typeof suppressNoise>[1]) =>
  (u: Int16Array): Int16Array =>
    suppressNoise(u, o);

export const SETTINGS: Record<string, DecodeSettings> = {
  shipped,
  'no denoise': plain,
  'shipped, silprob 0.05': { ...shipped, args: [...shipped.args, '-silprob', '0.05'] },
  'shipped, fill 90': { ...shipped, fill: 90 },
  'shipped, fwdflatlw 7.5': { ...shipped, args: [...shipped.args, '-fwdflatlw', '7.5'] },
  'shipped, fwdflatlw 10': { ...shipped, args: [...shipped.args, '-fwdflatlw', '10'] },
  'shipped, lw 7.5': { ...shipped, args: [...shipped.args, '-lw', '7.5', '-fwdflatlw', '9.5'] },
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
  'fill 0': { ...plain, fill: 0 },
  'fill 90': { ...plain, fill: 90 },
  'fill 180': { ...plain, fill: 180 },
  'upperf 3800 nfilt 20, no fill': { ...feat({ upperf: '3800', nfilt: '20' }), fill: 0 },
  'wide beams': flags('-beam', '1e-60', '-wbeam', '1e-40', '-pbeam', '1e-60', '-maxhmmpf', '-1'),
  'topn 6': flags('-topn', '6'),
  'dither yes': flags('-dither', 'yes'),
  denoise: { ...plain, pre: suppressed({}) },
  'denoise floor 0.2': { ...plain, pre: suppressed({ floor: 0.2 }) },
  'denoise floor 0.05': { ...plain, pre: suppressed({ floor: 0.05 }) },
  'denoise floor 0.3': { ...plain, pre: suppressed({ floor: 0.3 }) },
  'denoise over 2': { ...plain, pre: suppressed({ overSubtract: 2 }) },
  'denoise floor 0.2 gated': { ...plain, pre: suppressed({ floor: 0.2, gateDb: 25 }) },
  'denoise floor 0.3 gated': { ...plain, pre: suppressed({ floor: 0.3, gateDb: 25 }) },
};
