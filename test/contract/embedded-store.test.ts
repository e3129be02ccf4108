import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEmbeddedStore } from '../../src/store/index.js';
import { storeContract } from './store.contract.js';

describe('embedded store (SQLite file)', function () {
  let dir: string;
  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-store-'));
  });
  after(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  let n = 0;
  storeContract('embedded', async () => createEmbeddedStore(path.join(dir, `voice-${n++}.db`)));
});
