import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { createEmbeddedStore } from '../../src/store/embedded/index.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/ledger-debit.ts', import.meta.url));

interface Worker {
  child: ChildProcessWithoutNullStreams;
  lines: AsyncIterableIterator<string>;
}

function startWorker(args: string[]): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) console.error(`ledger worker exited ${code}: ${stderr}`);
  });
  return { child, lines: readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}

async function nextLine(w: Worker): Promise<string> {
  const r = await w.lines.next();
  if (r.done) throw new Error('worker ended without output');
  return r.value;
}

describe('embedded store shared by several processes', function () {
  this.timeout(60_000);
  let dir: string;
  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-ledger-'));
  });
  after(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('three processes debiting one key never take more than the balance', async function () {
    const file = path.join(dir, 'voice.db');
    const balance = 10_000;
    const amount = 2;
    // Each worker asks for 4 000 credits: the three together (12 000) ask for more than there is, but any two
    // leave at least 2 000, so every worker wins some however the OS schedules them.
    const attempts = 2000;

    const store0 = createEmbeddedStore(file);
    const keyId = 'shared-key';
    const workers = [0, 1, 2].map(() => startWorker([file, keyId, String(attempts), String(amount)]));
    try {
      for (const w of workers) expect(await nextLine(w)).to.equal('ready');
      await store0.keys.create({
        id: keyId,
        hash: 'h',
        label: 'shared',
        credits: balance,
        created_at: new Date().toISOString(),
      });
      for (const w of workers) w.child.stdin.write('go\n');
      const wins = (await Promise.all(workers.map(nextLine))).map((l) => (JSON.parse(l) as { wins: number }).wins);

      const taken = wins.reduce((a, b) => a + b, 0) * amount;
      expect(taken).to.be.at.most(balance);
      expect(await store0.keys.balance(keyId)).to.equal(balance - taken);
      // Balances only fall, so every attempt succeeds until fewer than `amount` credits are left.
      expect(taken).to.equal(Math.floor(balance / amount) * amount);
      // However the three were scheduled, none can have been starved by the other two.
      for (const w of wins) expect(w * amount).to.be.at.least(balance - 2 * attempts * amount);
    } finally {
      for (const w of workers) w.child.kill();
      await store0.close();
    }
  });

  it('processes starting on a new file at once all get the schema', async function () {
    const file = path.join(dir, 'fresh.db');
    const workers = [0, 1, 2].map(() => startWorker([file, 'none', '1', '1']));
    try {
      for (const w of workers) expect(await nextLine(w)).to.equal('ready');
      for (const w of workers) w.child.stdin.write('go\n');
      const out = await Promise.all(workers.map(nextLine));
      expect(out.map((l) => JSON.parse(l))).to.deep.equal([{ wins: 0 }, { wins: 0 }, { wins: 0 }]);
    } finally {
      for (const w of workers) w.child.kill();
    }
  });
});
