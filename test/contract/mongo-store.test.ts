import { connectMongoStore } from '../../src/store/mongo/index.js';
import { startFakeMongo, type FakeMongo } from '../fixtures/fake-mongo/server.js';
import { storeContract } from './store.contract.js';

const url = process.env.MONGODB_URL;

if (url) {
  // One database per run, so repeated runs against the same server start clean.
  const dbName = `voice_contract_${Date.now()}`;
  storeContract('mongodb', () => connectMongoStore(url, { dbName, serverSelectionTimeoutMS: 5000 }));
} else {
  describe('mongo store (skipped: MONGODB_URL not set)', function () {
    it('runs the store contract against a real MongoDB server when MONGODB_URL names one');
  });
}

/**
 * The same contract through the official driver against a local wire-protocol stand-in. It proves the adapter's
 * commands, options and result handling; query semantics come from the stand-in, so a real server (above) is
 * still the final word.
 */
describe('mongo adapter over the wire protocol (local stand-in server)', function () {
  let fake: FakeMongo;
  before(async function () {
    fake = await startFakeMongo();
  });
  after(async function () {
    await fake.close();
  });
  storeContract(
    'mongodb stand-in',
    () => connectMongoStore(fake.url, { dbName: 'voice_contract', serverSelectionTimeoutMS: 2000 }),
    // Late-bound: the stand-in starts in `before`.
    {
      get commands() {
        return fake.commands;
      },
      inject: (command, fault) => fake.inject(command, fault),
    },
  );
});
