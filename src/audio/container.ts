/* Recognises a recording's container by its first bytes, so only real audio files reach ffmpeg. */

export type Container = 'wav' | 'mp3' | 'aac' | 'ogg' | 'mp4' | 'flac' | 'webm' | 'amr' | 'aiff';

function at(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

export function sniffContainer(bytes: Uint8Array): Container | null {
  if (at(bytes, 0, 'RIFF') && at(bytes, 8, 'WAVE')) return 'wav';
  if (at(bytes, 0, 'ID3')) return 'mp3';
  if (at(bytes, 0, 'OggS')) return 'ogg';
  if (at(bytes, 4, 'ftyp')) return 'mp4';
  if (at(bytes, 0, 'fLaC')) return 'flac';
  if (at(bytes, 0, '#!AMR')) return 'amr';
  if (at(bytes, 0, 'FORM') && (at(bytes, 8, 'AIFF') || at(bytes, 8, 'AIFC'))) return 'aiff';
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return 'webm';
  if (bytes.length >= 2 && bytes[0] === 0xff) {
    const b = bytes[1]!;
    if ((b & 0xf6) === 0xf0) return 'aac'; // ADTS: sync 12 bits, layer 00
    if ((b & 0xe0) === 0xe0 && (b & 0x06) !== 0) return 'mp3'; // MPEG audio frame sync, layer I–III
  }
  return null;
}
