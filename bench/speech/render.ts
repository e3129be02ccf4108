/*
 * Calls spoken by Debian's voices and passed through a telephone channel: 300–3400 Hz band, 8 kHz,
 * G.711 μ-law or A-law, optionally with white noise at a fixed signal-to-noise ratio. Files are cached
 * by content under the cache directory, so reruns and tuning sweeps do not synthesise again.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export type Voice = 'flite-slt' | 'flite-rms' | 'flite-awb' | 'flite-kal16' | 'festival-slt-hts' | 'espeak';
export interface Channel {
  codec: 'mulaw' | 'alaw';
  /** Signal-to-noise ratio in dB; none when absent. */
  snrDb?: number;
}
export const channelName = (c: Channel): string =>
  `${c.codec === 'mulaw' ? 'μ-law' : 'A-law'}${c.snrDb ? `, ${c.snrDb} dB SNR` : ''}`;

function synthesise(voice: Voice, text: string, out: string): void {
  if (voice.startsWith('flite-')) {
    execFileSync('flite', ['-voice', voice.slice('flite-'.length), '-t', text, '-o', out]);
  } else if (voice === 'festival-slt-hts') {
    const txt = `${out}.txt`;
    fs.writeFileSync(txt, text);
    execFileSync('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', txt, '-o', out], { stdio: 'ignore' });
    fs.rmSync(txt);
  } else {
    execFileSync('espeak-ng', ['-v', 'en-us', '-w', out, text]);
  }
}

/** The call as an 8 kHz G.711 WAV file (the bytes a telephony platform would record). */
export function telephoneWav(cache: string, voice: Voice, text: string, channel: Channel): Buffer {
  const key = createHash('sha1').update(`${voice}\0${text}`).digest('hex').slice(0, 16);
  fs.mkdirSync(cache, { recursive: true });
  const clean = path.join(cache, `${key}-${voice}.wav`);
  if (!fs.existsSync(clean)) synthesise(voice, text, clean);
  const name = `${key}-${voice}-${channel.codec}${channel.snrDb ? `-snr${channel.snrDb}` : ''}.wav`;
  const file = path.join(cache, name);
  if (!fs.existsSync(file)) {
    const band = path.join(cache, `${key}-${voice}-band.wav`);
    execFileSync('sox', [clean, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed', band, 'sinc', '300-3400']);
    let input = band;
    if (channel.snrDb !== undefined) {
      const speechRms = soxRms(band);
      const noise = path.join(cache, `${key}-${voice}-noise${channel.snrDb}.wav`);
      const noiseRms = speechRms / 10 ** (channel.snrDb / 20);
      const seconds = execFileSync('soxi', ['-D', band], { encoding: 'utf8' }).trim();
      // Uniform white noise of amplitude a has RMS a/√3; band-limited like the line itself.
      execFileSync('sox', [
        '-R',
        '-n',
        '-r',
        '8000',
        '-c',
        '1',
        '-b',
        '16',
        noise,
        'synth',
        seconds,
        'whitenoise',
        'vol',
        String(noiseRms * Math.sqrt(3)),
      ]);
      const mixed = path.join(cache, `${key}-${voice}-mix${channel.snrDb}.wav`);
      execFileSync('sox', ['-m', band, noise, mixed]);
      input = mixed;
    }
    execFileSync('sox', [input, '-e', channel.codec === 'mulaw' ? 'u-law' : 'a-law', '-b', '8', file]);
  }
  return fs.readFileSync(file);
}

/** RMS amplitude (full scale 1) of a sound file, from sox's `stat` (which reports on stderr). */
function soxRms(file: string): number {
  const err = execFileSync('sh', ['-c', 'sox "$0" -n stat 2>&1', file], { encoding: 'utf8' });
  const m = /RMS\s+amplitude:\s+([\d.]+)/.exec(err);
  if (!m) throw new Error(`sox stat: no RMS for ${file}`);
  return Number(m[1]);
}
