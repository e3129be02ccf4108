import { connectMongoStore } from '../../src/store/mongo/index.js';
import { storeContract } from './store.contract.js';

const url = process.env.MONGODB_URL;

if (url) {
  // One database per run, so repeated runs against the same server start clean.
  const dbName = `voice_contract_${Date.now()}`;
  storeContract('mongodb', () => connectMongoStore(url, { dbName, serverSelectionTimeoutMS: 5000 }));
} else {
  describe('mongo store (skipped: MONGODB_URL not set)', function () {
    it('runs the store contract against MongoDB when MONGODB_URL names a server');
  });
}
