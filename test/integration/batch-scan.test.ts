import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CSV_COLUMNS, type ResultRow } from '../../src/cli/scan/results.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = path.resolve('.');

function voice(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, VOICE_LOG_LEVEL: 'warn', VOICE_STT: 'sphinx', VOICE_LLM: 'local', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const rowsOf = (file: string): ResultRow[] =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ResultRow);

/** CSV records (RFC 4180: a quoted cell may hold line breaks, as the transcript column does). */
function csvRecords(text: string): string[] {
  const records: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (ch === '\n' && !quoted) {
      records.push(current);
      current = '';
    } else current += ch;
  }
  if (current) records.push(current);
  return records;
}

describe('voice scan (batch)', function () {
  this.timeout(120_000);
  const dir = path.resolve('test/.tmp', `batch-${process.pid}`);
  const calls = path.join(dir, 'calls');
  const out = path.join(dir, 'out', 'results');

  before(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(calls, 'nested'), { recursive: true });
    const wav = path.join(calls, 'irs.wav');
    execFileSync('espeak-ng', ['-w', wav, 'This is the Internal Revenue Service. There is a warrant for your arrest.']);
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-i',
      wav,
      '-ar',
      '16000',
      path.join(calls, 'nested', 'irs.mp3'),
    ]);
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-i',
      wav,
      '-ar',
      '8000',
      '-f',
      'mulaw',
      path.join(calls, 'irs.ulaw'),
    ]);
    fs.writeFileSync(
      path.join(calls, 'dentist.txt'),
      "caller: Hi, it is Sarah from Doctor Patel's office, confirming Thursday at three.\n",
    );
    fs.writeFileSync(
      path.join(calls, 'prize.json'),
      JSON.stringify({
        lines: [
          { speaker: 'caller', text: 'Congratulations, you have won a free cruise to the Bahamas.' },
          { speaker: 'caller', text: 'Pay the processing fee today with a Google Play gift card and tell no one.' },
        ],
      }),
    );
    fs.writeFileSync(path.join(calls, 'notes.md'), 'not a call');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('scores a folder of mixed files in process, with progress on stderr, JSONL and CSV, and a summary', async () => {
    const r = await voice(['scan', calls, '--out', out, '--concurrency', '3', '--encoding', 'mulaw']);
    expect(r.code, r.stderr).to.equal(0);
    // Not a terminal: one plain progress line per file, with rate and ETA.
    const progress = r.stderr.split('\n').filter((l) => /^\[\d\/5\] /.test(l));
    expect(progress).to.have.length(5);
    for (const l of progress) expect(l).to.match(/files\/s, ETA \d+s\)$/);
    expect(progress.at(-1)).to.match(/^\[5\/5\]/);

    const rows = rowsOf(`${out}.jsonl`);
    expect(rows.map((x) => path.relative(calls, x.file)).sort()).to.deep.equal(
      ['dentist.txt', 'irs.ulaw', 'irs.wav', 'nested/irs.mp3', 'prize.json'].sort(),
    );
    for (const row of rows) {
      expect(row.error, row.file).to.equal(undefined);
      expect(row.session_id).to.match(/^[0-9a-f-]{36}$/);
      expect(row.score).to.be.within(0, 1);
    }
    const by = (name: string) => rows.find((x) => x.file.endsWith(name))!;
    expect(by('prize.json')).to.include({ level: 'scam', category: 'Lotteries, Prizes & Sweepstakes' });
    expect(by('prize.json').intel_counts).to.include({ gift_card_brands: 1 });
    expect(by('dentist.txt').level).to.equal('clean');
    // The recording was heard: the rules found the tax story in what the recogniser wrote.
    expect(by('irs.wav').score!).to.be.greaterThan(by('dentist.txt').score!);

    const csv = csvRecords(fs.readFileSync(`${out}.csv`, 'utf8'));
    expect(csv[0]).to.equal(CSV_COLUMNS.join(','));
    expect(csv).to.have.length(6);
    expect(csv.find((l) => l.includes('prize.json'))).to.contain('"Lotteries, Prizes & Sweepstakes"');
    expect(r.stdout)
      .to.match(/files\s+5/)
      .and.match(/scam\s+1/)
      .and.match(/results: .*results\.jsonl/);
  });

  it('resumes: files already scored are skipped unless they changed', async () => {
    const again = await voice(['scan', calls, '--out', out, '--encoding', 'mulaw']);
    expect(again.code).to.equal(0);
    expect(again.stderr).to.contain('5 of 5 files already scored');
    expect(again.stderr).to.not.match(/^\[\d\/\d\]/m);
    expect(rowsOf(`${out}.jsonl`)).to.have.length(5);

    const changed = path.join(calls, 'dentist.txt');
    fs.utimesSync(changed, new Date(), new Date(Date.now() + 5000));
    const third = await voice(['scan', calls, '--out', out, '--encoding', 'mulaw']);
    expect(third.code).to.equal(0);
    expect(third.stderr).to.contain('4 of 5 files already scored');
    expect(third.stderr.split('\n').filter((l) => l.startsWith('[1/1] '))[0]).to.contain('dentist.txt');
    expect(rowsOf(`${out}.jsonl`)).to.have.length(6);
    expect(csvRecords(fs.readFileSync(`${out}.csv`, 'utf8'))).to.have.length(6);
  });

  describe('against a node (--url, --key)', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(); // text only: no speech-to-text on this node
    });
    after(async () => server.close());

    it('scores through the HTTP API: transcripts stored as sessions of the key, audio failing with the node’s 502', async () => {
      const nodeOut = path.join(dir, 'node', 'results');
      const r = await voice([
        'scan',
        calls,
        '--url',
        server.url,
        '--key',
        server.key,
        '--out',
        nodeOut,
        '--encoding',
        'mulaw',
      ]);
      expect(r.code).to.equal(1);
      const rows = rowsOf(`${nodeOut}.jsonl`);
      const prize = rows.find((x) => x.file.endsWith('prize.json'))!;
      expect(prize.level).to.equal('scam');
      const stored = await fetch(`${server.url}/voice/sessions/${prize.session_id}`, {
        headers: { 'X-Auth': server.key },
      });
      expect(stored.status).to.equal(200);
      const wav = rows.find((x) => x.file.endsWith('irs.wav'))!;
      expect(wav.error).to.match(/^502: transcription failed/);
      expect(r.stdout).to.match(/failed\s+3/);
    });

    it('keeps going through the node’s rate limit, waiting as its Retry-After asks', async () => {
      // 60 a minute: a burst of 60, then one request a second; 66 files must meet 429s.
      const limited = await startTestServer({ VOICE_RATE_LIMIT: '60' });
      const many = path.join(dir, 'many');
      fs.mkdirSync(many, { recursive: true });
      for (let i = 0; i < 66; i++)
        fs.writeFileSync(
          path.join(many, `call-${i}.txt`),
          `caller: Hi, this is the library: book ${i} is due Friday.\n`,
        );
      try {
        const limitedOut = path.join(dir, 'limited', 'results');
        const r = await voice([
          'scan',
          many,
          `--url=${limited.url}`,
          `--key=${limited.key}`,
          `--out=${limitedOut}`,
          '--concurrency=6',
        ]);
        expect(r.code, r.stderr).to.equal(0);
        expect(r.stderr).to.match(/the node answered 429; waiting \d+ s as it asks, then going on/);
        expect(r.stdout).to.match(/waits on the rate limit\s+[1-9]/);
        const rows = rowsOf(`${limitedOut}.jsonl`);
        expect(rows).to.have.length(66);
        for (const row of rows) expect(row.error, row.file).to.equal(undefined);
        const csv = fs.readFileSync(`${limitedOut}.csv`, 'utf8');
        expect(csv.split('\n')[0]!.endsWith(',transcript')).to.equal(true);
        expect(csv).to.contain('caller: Hi, this is the library: book 7 is due Friday.');
      } finally {
        await limited.close();
      }
    });

    it('refuses a bad invocation with exit code 2 and a message naming the option', async () => {
      const r = await voice(['scan', calls, '--url', server.url]);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain('--url needs --key');
      const raw = await voice(['scan', calls, '--encoding', 'pcm16']);
      expect(raw.code).to.equal(2);
      expect(raw.stderr).to.contain('--encoding pcm16 needs --sample-rate');
    });
  });
});
