import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/log.js';
import { openStore } from '../../../src/store/index.js';
import { startFakeMongo } from '../../fixtures/fake-mongo/server.js';

describe('openStore', function () {
  const log = createLogger('silent');
  let dir: string;
  beforeEach(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-open-'));
  });
  afterEach(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens the SQLite file in the data dir, creating the dir, when no MongoDB URL is set', async function () {
    const dataDir = path.join(dir, 'nested', 'data');
    const store = await openStore(loadConfig({ VOICE_DATA_DIR: dataDir }), log);
    try {
      expect(store.kind).to.equal('embedded');
      await store.ping();
      expect(fs.existsSync(path.join(dataDir, 'voice.db'))).to.equal(true);
    } finally {
      await store.close();
    }
  });

  it('keeps what was written across reopening the data dir', async function () {
    const config = loadConfig({ VOICE_DATA_DIR: dir });
    const first = await openStore(config, log);
    await first.keys.create({ id: 'k1', hash: 'h1', label: 'x', credits: 7, created_at: '2026-01-01T00:00:00.000Z' });
    await first.close();
    const second = await openStore(config, log);
    try {
      expect(await second.keys.balance('k1')).to.equal(7);
    } finally {
      await second.close();
    }
  });

  it('connects to MongoDB when MONGODB_URL is set', async function () {
    const fake = await startFakeMongo();
    try {
      const store = await openStore(loadConfig({ VOICE_DATA_DIR: dir, MONGODB_URL: fake.url }), log);
      expect(store.kind).to.equal('mongodb');
      await store.ping();
      await store.close();
      expect(fs.existsSync(path.join(dir, 'voice.db'))).to.equal(false);
    } finally {
      await fake.close();
    }
  });
});
