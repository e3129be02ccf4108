/**
 * `voice scan <files or folders…> [--url URL --key KEY] [--concurrency N] [--max-wait S] [--out PREFIX]
 *            [--encoding pcm16|mulaw --sample-rate HZ] [--language L] [--report --from E164]`
 *
 * Scores recordings and transcripts in bulk, against a node (`--url`, `--key`) or in this process
 * (default). Results go to `PREFIX.jsonl` (appended per file) and `PREFIX.csv`; a second run with the
 * same prefix skips files already scored (same path, size and modification time). Against a node, a
 * 429 is waited out as its `Retry-After` says (see scan/retry.ts). Progress on stderr,
 * a summary table on stdout at the end. Exit code 0 when every file was scored, 1 when some failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { configOrReport } from './config-arg.js';
import { collectInputs, type InputFile } from './scan/inputs.js';
import { Progress } from './scan/progress.js';
import { doneKey, errorRow, latestRows, okRow, readRows, summaryTable, toCsv, type ResultRow } from './scan/results.js';
import { failureText, localScanner, nodeScanner, type FileScanner, type ScanSettings } from './scan/scanners.js';

export interface ScanArgs {
  paths: string[];
  url?: string;
  key?: string;
  concurrency: number;
  /** Seconds one file may wait on the node's rate limit (429 + Retry-After) before it counts as failed. */
  maxWaitSeconds: number;
  out: string;
  settings: ScanSettings;
}

export const USAGE = `Usage: voice scan <files or folders…> [options]
  --url URL            score on a node ({api_root}, e.g. http://127.0.0.1:8080); default: in this process
  --key KEY            API key for --url (or VOICE_KEY)
  --concurrency N      files scored at once (default 4)
  --max-wait S         node mode: seconds a file may wait on the node's rate limit, as its
                       Retry-After asks, before it counts as failed (default 600)
  --out PREFIX         write PREFIX.jsonl and PREFIX.csv (default scan-results); reruns skip done files
  --encoding E         raw audio files (.raw .pcm .ulaw): pcm16 or mulaw
  --sample-rate HZ     raw audio rate (required for pcm16; mulaw defaults to 8000)
  --language L         BCP-47 hint for transcription
  --report --from N    node mode: file the caller N when a verdict is scam`;

export function parseScanArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ScanArgs | string {
  const args: ScanArgs = { paths: [], concurrency: 4, maxWaitSeconds: 600, out: 'scan-results', settings: {} };
  let encoding: string | undefined;
  let rate: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string | undefined => argv[++i];
    if (a === '--url') {
      const v = value();
      if (!v || !/^https?:\/\//.test(v)) return '--url must be an http(s) URL';
      args.url = v;
    } else if (a === '--key') {
      const v = value();
      if (!v) return '--key needs a value';
      args.key = v;
    } else if (a === '--concurrency') {
      const v = value();
      if (!v || !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 64) return '--concurrency must be 1 to 64';
      args.concurrency = Number(v);
    } else if (a === '--max-wait') {
      const v = value();
      if (!v || !/^\d+$/.test(v) || Number(v) > 86_400) return '--max-wait must be 0 to 86400 seconds';
      args.maxWaitSeconds = Number(v);
    } else if (a === '--out') {
      const v = value();
      if (!v) return '--out needs a prefix';
      args.out = v;
    } else if (a === '--encoding') {
      encoding = value();
      if (encoding !== 'pcm16' && encoding !== 'mulaw') return '--encoding must be pcm16 or mulaw';
    } else if (a === '--sample-rate') {
      const v = value();
      if (!v || !/^\d+$/.test(v) || Number(v) < 8000 || Number(v) > 48000) return '--sample-rate must be 8000 to 48000';
      rate = Number(v);
    } else if (a === '--language') {
      const v = value();
      if (!v) return '--language needs a value';
      args.settings.language = v;
    } else if (a === '--report') args.settings.report = true;
    else if (a === '--from') {
      const v = value();
      if (!v || !/^\+[1-9]\d{6,14}$/.test(v)) return '--from must be an E.164 number with a leading +';
      args.settings.from = v;
    } else if (a === '-h' || a === '--help') return USAGE;
    else if (a.startsWith('-')) return `unknown option ${a}\n${USAGE}`;
    else args.paths.push(a);
  }
  if (args.paths.length === 0) return `no files or folders given\n${USAGE}`;
  if (encoding === 'pcm16' && rate === undefined) return '--encoding pcm16 needs --sample-rate';
  if (encoding) args.settings.raw = { encoding: encoding as 'pcm16' | 'mulaw', ...(rate ? { sampleRate: rate } : {}) };
  args.key ??= env.VOICE_KEY;
  if (args.url && !args.key) return '--url needs --key (or VOICE_KEY)';
  if (args.settings.report && !args.url)
    return '--report works only against a node (--url): in-process scans file nothing';
  if (args.settings.report && !args.settings.from) return '--report needs --from';
  return args;
}

export async function run(argv: string[]): Promise<number> {
  const args = parseScanArgs(argv);
  if (typeof args === 'string') {
    const help = args === USAGE;
    (help ? console.log : console.error)(help ? args : `voice scan: ${args}`);
    return help ? 0 : 2;
  }
  let files: InputFile[];
  try {
    files = await collectInputs(args.paths);
  } catch (e) {
    console.error(`voice scan: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
  const jsonl = `${args.out}.jsonl`;
  const csv = `${args.out}.csv`;
  fs.mkdirSync(path.dirname(path.resolve(jsonl)), { recursive: true });
  const earlier = readRows(jsonl);
  const done = new Set(earlier.filter((r) => !r.error).map(doneKey));
  const todo = files.filter((f) => !done.has(doneKey({ file: f.path, size: f.size, mtime_ms: f.mtimeMs })));
  const skipped = files.length - todo.length;
  if (skipped > 0)
    console.error(`voice scan: ${skipped} of ${files.length} files already scored in ${jsonl}; skipping them`);

  let scanner: FileScanner;
  let waits = 0;
  if (args.url) {
    scanner = nodeScanner(args.url, args.key!, args.settings, {
      maxWaitSeconds: args.maxWaitSeconds,
      onWait: (seconds, e) => {
        if (waits++ === 0)
          console.error(`voice scan: the node answered ${e.status}; waiting ${seconds} s as it asks, then going on`);
      },
    });
  } else {
    const config = configOrReport();
    if (!config) return 2;
    scanner = await localScanner(config, args.settings);
  }

  const started = Date.now();
  const progress = new Progress(todo.length);
  const out = fs.openSync(jsonl, 'a');
  const rows: ResultRow[] = [];
  const controller = new AbortController();
  const interrupt = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', interrupt);
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < todo.length && !controller.signal.aborted) {
        const file = todo[next++]!;
        const t0 = performance.now();
        let row: ResultRow;
        try {
          row = okRow(file, await scanner.scan(file, controller.signal), (performance.now() - t0) / 1000);
        } catch (e) {
          row = errorRow(file, failureText(e), (performance.now() - t0) / 1000);
        }
        if (controller.signal.aborted) return;
        rows.push(row);
        fs.writeSync(out, `${JSON.stringify(row)}\n`);
        progress.tick(file.path, row.error ? `failed: ${row.error}` : `${row.level} ${row.score!.toFixed(2)}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(args.concurrency, Math.max(1, todo.length)) }, worker));
  } finally {
    process.off('SIGINT', interrupt);
    fs.closeSync(out);
    await scanner.close();
  }

  // The CSV and summary cover every file of this run's inputs, scored now or before.
  const wanted = new Set(files.map((f) => f.path));
  const all = latestRows([...earlier, ...rows]).filter((r) => wanted.has(r.file));
  fs.writeFileSync(csv, toCsv(all));
  console.log(summaryTable(all, { scanned: rows.length, skipped, waits, seconds: (Date.now() - started) / 1000 }));
  console.log(`  results: ${jsonl}, ${csv}`);
  if (controller.signal.aborted) return 130;
  return all.some((r) => r.error) ? 1 : 0;
}
