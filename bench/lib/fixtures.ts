import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures');

/** The `transcript` of every line of the named JSONL files in test/fixtures, in order. */
export function fixtureTranscripts(...files: string[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    for (const line of fs.readFileSync(path.join(FIXTURES, f), 'utf8').split('\n')) {
      if (line.trim()) out.push((JSON.parse(line) as { transcript: string }).transcript);
    }
  }
  return out;
}
