import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { JournalFile } from '../../../src/store/journal-file.js';

describe('journal file', function () {
  let dir: string;
  let file: string;
  beforeEach(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-jf-'));
    file = path.join(dir, 'journal.jsonl');
  });
  afterEach(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('groups concurrent appends and reads them back in order', async function () {
    const j = new JournalFile<{ n: number }>(file);
    await Promise.all([1, 2, 3].map((n) => j.append({ n })));
    await j.append({ n: 4 });
    expect(await j.readAll()).to.deep.equal([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    await j.close();
  });

  it('appends after a rewrite land in the new file, not in the one it replaced', async function () {
    const j = new JournalFile<{ n: number }>(file);
    await j.append({ n: 1 });
    await j.rewrite(() => [{ n: 10 }]);
    await j.append({ n: 2 });
    expect(await j.readAll()).to.deep.equal([{ n: 10 }, { n: 2 }]);
    await j.close();
  });

  it('after close, an append opens the file again', async function () {
    const j = new JournalFile<{ n: number }>(file);
    await j.append({ n: 1 });
    await j.close();
    await j.append({ n: 2 });
    expect(await new JournalFile<{ n: number }>(file).readAll()).to.deep.equal([{ n: 1 }, { n: 2 }]);
    await j.close();
  });
});
