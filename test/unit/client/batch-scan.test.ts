import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseScanArgs } from '../../../src/cli/scan.js';
import { readTranscript } from '../../../src/cli/scan/inputs.js';
import { formatSeconds, Progress } from '../../../src/cli/scan/progress.js';
import { doneKey, latestRows, toCsv, type ResultRow } from '../../../src/cli/scan/results.js';
import { retryDelay, withRetryAfter } from '../../../src/cli/scan/retry.js';
import { splitOptionValues, version } from '../../../src/cli/main.js';
import { VoiceApiError } from '../../../src/client/index.js';

describe('voice scan: pieces', () => {
  it('parses options and names the one that is wrong', () => {
    const a = parseScanArgs(
      ['calls', '--concurrency', '8', '--encoding', 'pcm16', '--sample-rate', '16000', '--out', 'o/r'],
      {},
    );
    expect(a).to.deep.include({ paths: ['calls'], concurrency: 8, out: 'o/r' });
    expect((a as { settings: unknown }).settings).to.deep.equal({ raw: { encoding: 'pcm16', sampleRate: 16000 } });
    expect(parseScanArgs(['calls', '--url', 'http://n:8080'], { VOICE_KEY: 'k' })).to.deep.include({ key: 'k' });
    expect(parseScanArgs([], {})).to.match(/^no files or folders given/);
    expect(parseScanArgs(['x', '--concurrency', '0'], {})).to.equal('--concurrency must be 1 to 64');
    expect(parseScanArgs(['x', '--encoding', 'opus'], {})).to.equal('--encoding must be pcm16 or mulaw');
    expect(parseScanArgs(['x', '--report', '--from', '+12025550123'], {})).to.match(/only against a node/);
    expect(parseScanArgs(['x', '--bogus'], {})).to.match(/^unknown option --bogus/);
    expect(parseScanArgs(['x', '--max-wait', '30'], {})).to.deep.include({ maxWaitSeconds: 30 });
    expect(parseScanArgs(['x', '--max-wait', 'soon'], {})).to.match(/^--max-wait must be/);
  });

  it('takes --opt=value as well as --opt value, and knows its version', () => {
    expect(splitOptionValues(['scan', '--out=o/r', '--concurrency', '2', '--url=http://h/?a=b', 'x=y'])).to.deep.equal([
      'scan',
      '--out',
      'o/r',
      '--concurrency',
      '2',
      '--url',
      'http://h/?a=b',
      'x=y',
    ]);
    expect(splitOptionValues(['scan', '--', '--out=x'])).to.deep.equal(['scan', '--', '--out=x']);
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(version()).to.equal(pkg.version);
  });

  it("waits out 429s as Retry-After says, within the file's budget, and gives up on final errors", async () => {
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const signal = new AbortController().signal;
    let calls = 0;
    const flaky = async () => {
      if (++calls <= 2) throw new VoiceApiError(429, 'rate limit exceeded; retry later', calls * 3);
      return 'scored';
    };
    expect(await withRetryAfter(flaky, signal, { maxWaitSeconds: 60, sleep })).to.equal('scored');
    expect(waits).to.deep.equal([3000, 6000]);

    calls = 0;
    const err = await withRetryAfter(flaky, signal, { maxWaitSeconds: 5, sleep }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(VoiceApiError).with.property('status', 429);

    expect(retryDelay(new VoiceApiError(429, 'x'))).to.equal(1);
    expect(retryDelay(new VoiceApiError(503, 'feature off'))).to.equal(undefined);
    expect(retryDelay(new VoiceApiError(503, 'busy', 7))).to.equal(7);
    expect(retryDelay(new VoiceApiError(402, 'insufficient credits'))).to.equal(undefined);
    expect(retryDelay(new Error('socket hang up'))).to.equal(undefined);
  });

  it('reads transcripts from text and the JSON shapes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scan-inputs-'));
    const write = (name: string, body: unknown) => {
      fs.writeFileSync(path.join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
      return path.join(dir, name);
    };
    try {
      expect(await readTranscript(write('a.txt', 'caller: hi\ncallee: hello'))).to.equal('caller: hi\ncallee: hello');
      expect(await readTranscript(write('b.json', { transcript: 'caller: hi' }))).to.equal('caller: hi');
      expect(await readTranscript(write('c.json', ['one', { speaker: 'caller', text: 'two' }]))).to.equal(
        'one\ncaller: two',
      );
      expect(await readTranscript(write('d.json', { turns: [{ role: 'callee', text: 'x' }] }))).to.equal('callee: x');
      await readTranscript(write('e.json', '{nope')).then(
        () => expect.fail('bad JSON accepted'),
        (e: Error) => expect(e.message).to.match(/^not valid JSON/),
      );
      await readTranscript(write('f.json', { other: 1 })).then(
        () => expect.fail('JSON without a transcript accepted'),
        (e: Error) => expect(e.message).to.match(/holds no transcript/),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes CSV with quoting, and keeps the latest row per file', () => {
    const base = { size: 1, mtime_ms: 2, seconds: 0.1 };
    const rows: ResultRow[] = [
      { ...base, file: 'a.txt', error: 'boom' },
      {
        ...base,
        file: 'b "q".json',
        session_id: 's',
        score: 0.9,
        level: 'scam',
        category: 'Lotteries, Prizes & Sweepstakes',
        tactics: ['urgency', 'prize_lure'],
        intel_counts: { amounts: 2, dtmf: 1 },
        reported: true,
      },
      {
        ...base,
        file: 'a.txt',
        session_id: 't',
        score: 0.1,
        level: 'clean',
        category: 'none',
        tactics: [],
        intel_counts: {},
        reported: false,
        transcript: 'caller: hi\ncallee: "yo"',
      },
    ];
    const latest = latestRows(rows);
    expect(latest.map((r) => r.session_id)).to.deep.equal(['s', 't']);
    expect(toCsv(latest).split('\n')).to.deep.equal([
      'file,session_id,score,level,category,tactics,intel_count,intel,reported,error,transcript',
      '"b ""q"".json",s,0.9,scam,"Lotteries, Prizes & Sweepstakes",urgency;prize_lure,3,amounts=2;dtmf=1,true,,',
      'a.txt,t,0.1,clean,none,,0,,false,,"caller: hi',
      'callee: ""yo"""',
      '',
    ]);
    expect(doneKey(rows[0]!)).to.equal(doneKey({ file: 'a.txt', size: 1, mtime_ms: 2 }));
    expect(doneKey(rows[0]!)).to.not.equal(doneKey({ file: 'a.txt', size: 1, mtime_ms: 3 }));
  });

  it('draws a bar with rate and ETA on a terminal, plain lines otherwise', () => {
    const capture = () => {
      let text = '';
      const stream = new Writable({ write: (c: Buffer, _e, done) => ((text += c.toString()), done()) });
      return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
    };
    const tty = capture();
    const bar = new Progress(2, tty.stream, true);
    bar.tick('a', 'clean 0.10');
    bar.tick('b', 'scam 0.95');
    expect(tty.text().startsWith('\r\u001b[2K')).to.equal(true);
    expect(tty.text()).to.match(/\[#{30}\] 2\/2 100% [\d.]+ files\/s, ETA 0s\n$/);
    const plain = capture();
    new Progress(1, plain.stream, false).tick('a.wav', 'failed: 502: no speech');
    expect(plain.text()).to.match(/^\[1\/1\] a\.wav: failed: 502: no speech \([\d.]+ files\/s, ETA 0s\)\n$/);
    expect([formatSeconds(5), formatSeconds(125), formatSeconds(7300), formatSeconds(Infinity)]).to.deep.equal([
      '5s',
      '2m05s',
      '2h01m',
      '?',
    ]);
  });
});
