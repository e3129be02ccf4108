import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('benchmarks (smoke)', function () {
  this.timeout(90_000);

  it('the latency benchmark runs in short mode: sessions open, frames reach the recogniser, lines and verdicts come back', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'bench/run.ts', 'latency', '--short', '--sessions', '10', '--seconds', '8', '--no-write'],
        { cwd: root, timeout: 80_000 },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    expect(out).to.match(/Frame latency: 10 concurrent filter sessions \(0 failed to open\)/);
    const samples = (label: string): number => {
      const row = out.split('\n').find((l) => l.startsWith(`| ${label}`));
      expect(row, label).to.be.a('string');
      return Number(row!.split('|')[2]!.trim());
    };
    // 10 sessions × 50 frames a second × 8 s, give or take scheduling; the rules' verdicts come after a few lines.
    expect(samples('frame arrival → recogniser hand-off')).to.be.greaterThan(2000);
    expect(samples('utterance → transcript.line')).to.be.greaterThanOrEqual(10);
    expect(samples('utterance → verdict')).to.be.greaterThan(0);
    expect(out).to.match(/\| sessions ended unexpectedly \| 0 \|/);
    expect(out).to.match(/- machine: \d+ cores/);
  });
});
