import { readFileSync } from 'node:fs';

/** The rows of a JSON-lines file in test/fixtures, blank lines skipped. */
export function readFixture<T>(name: string): T[] {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}
