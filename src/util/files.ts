import { accessSync, constants } from 'node:fs';

/** Probes for external programs and model files found at boot (ffmpeg, PocketSphinx). */
function can(file: string, mode: number): boolean {
  try {
    accessSync(file, mode);
    return true;
  } catch {
    return false;
  }
}

export const isExecutable = (file: string): boolean => can(file, constants.X_OK);
export const isReadable = (file: string): boolean => can(file, constants.R_OK);
