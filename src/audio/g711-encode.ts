/* G.711 encoders (ITU-T G.711): 16-bit linear PCM → mu-law or A-law bytes, one byte per sample. */

const BIAS = 0x84;
const CLIP = 32635;

export function linearToMulaw(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

export function linearToAlaw(sample: number): number {
  let s = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = s >= 0 ? 0x80 : 0;
  if (s < 0) s = -s - 1;
  s >>= 3; // 13-bit magnitude
  let out: number;
  if (s < 32) {
    out = s >> 1;
  } else {
    let seg = 1;
    for (let v = s >> 5; v > 1 && seg < 7; v >>= 1) seg++;
    out = (seg << 4) | ((s >> seg) & 0x0f);
  }
  return (out | sign) ^ 0x55;
}

export function encodeMulaw(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = linearToMulaw(pcm[i]!);
  return out;
}

export function encodeAlaw(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = linearToAlaw(pcm[i]!);
  return out;
}
