import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { HANDOFF_SAMPLE_EVERY } from '../../bench/live/protocol.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs `npm run bench -- <args>` as CI would, without writing RESULTS.md; resolves with its output. */
function bench(args: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bench/run.ts', ...args, '--no-write'],
      { cwd: root, timeout: 80_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
}

describe('benchmarks (smoke)', function () {
  this.timeout(90_000);

  it('the latency benchmark runs in short mode: sessions open, frames reach the recogniser, lines and verdicts come back', async () => {
    const out = await bench(['latency', '--short', '--sessions', '10', '--seconds', '8']);
    expect(out).to.match(/Frame latency: 10 concurrent filter sessions \(0 failed to open\)/);
    const samples = (label: string): number => {
      const row = out.split('\n').find((l) => l.startsWith(`| ${label}`));
      expect(row, label).to.be.a('string');
      return Number(row!.split('|')[2]!.trim());
    };
    // 10 sessions × 50 frames a second × 8 s, one in HANDOFF_SAMPLE_EVERY of them timed, give or take
    // scheduling; the rules' verdicts come after a few lines.
    expect(samples('frame arrival → recogniser hand-off')).to.be.greaterThan(2000 / HANDOFF_SAMPLE_EVERY);
    expect(samples('utterance → transcript.line')).to.be.greaterThanOrEqual(10);
    expect(samples('utterance → verdict')).to.be.greaterThan(0);
    expect(out).to.match(/\| sessions ended unexpectedly \| 0 \|/);
    // Short calls (3–9 s) come and go: some end and are replaced within the 8 s window.
    const started = /replaced when it ends \((\d+) started in the window\)/.exec(out);
    expect(Number(started?.[1]), out).to.be.greaterThan(0);
    expect(out).to.match(/- machine: \d+ cores/);
    expect(out).to.match(/Host speed .*: \d+ calls\/s before, \d+ after\./);
  });

  it('the scan benchmark runs in short mode: every request answered 200 at both concurrencies', async () => {
    const out = await bench(['scan', '--short', '--seconds', '2']);
    const rows = out.split('\n').filter((l) => /^\| (1|32) \|/.test(l));
    expect(rows, out).to.have.length(2);
    for (const row of rows) {
      const [, , requests, non200, rate] = row.split('|').map((c) => c.trim());
      expect(Number(requests), row).to.be.greaterThan(0);
      expect(Number(non200), row).to.equal(0);
      expect(Number(rate), row).to.be.greaterThan(0);
    }
    expect(out).to.match(/In-process scoring .* \*\*\d+ transcripts\/s\*\*/);
  });
});
