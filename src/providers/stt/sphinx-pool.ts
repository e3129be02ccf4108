/*
 * Warm PocketSphinx decoders shared by every call on the node. Loading the model takes a process about
 * half a second of CPU and 110 MB, and a decoder is idle whenever its caller is silent, so a process
 * per call paid for silence. Here a few `pocketsphinx_batch` processes (one per core: decoding is
 * CPU-bound) stay loaded and take one utterance at a time: the VAD has already cut the call into
 * utterances, each is written to a file and its name to the decoder's control stream, and the decoder
 * answers with one hypothesis line naming it.
 *
 * Live utterances go before scan utterances, so a long scan never delays a running call's transcript.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../log.js';
import { metrics } from '../../observability/metrics.js';
import { ProviderError } from '../errors.js';

export type DecodePriority = 'live' | 'scan';

interface Job {
  pcm: Int16Array;
  sampleRate: number;
  priority: DecodePriority;
  resolve(text: string): void;
  reject(e: Error): void;
  /** Set when the caller stopped waiting: a queued job is skipped, a running one is let finish. */
  abandoned: boolean;
}

interface Decoder {
  child: ChildProcessWithoutNullStreams;
  job: Job | null;
  name: string;
  startedAt: number;
  watchdog?: NodeJS.Timeout;
  stdoutRest: string;
  stderrTail: string;
  /** Killed or exited: never given another job. */
  dead: boolean;
}

/** A hypothesis line: `words (uttid score)`; words may be empty. */
const HYP = /^(.*?) ?\((\S+) (-?\d+)\)$/;

/** Wall seconds a decoder needs per second of speech, before any is measured (conservative). */
const INITIAL_SECONDS_PER_SECOND = 0.5;

export interface SphinxPoolOptions {
  binary: string;
  /** Decoder arguments (model, front end, search settings); the pool adds input and output. */
  args: readonly string[];
  /** Decoder processes. */
  size: number;
  id: string;
  log: Logger;
}

export class SphinxPool {
  private readonly dir: string;
  private readonly decoders: Decoder[] = [];
  private readonly queues: Record<DecodePriority, Job[]> = { live: [], scan: [] };
  private seq = 0;
  private closed = false;
  /** Moving average of wall seconds per second of audio, as decoders on this host deliver. */
  private secondsPerSecond = INITIAL_SECONDS_PER_SECOND;
  /** Seconds of audio queued or being decoded. */
  private pendingSeconds = 0;

  constructor(private readonly opts: SphinxPoolOptions) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'sphinx-utt-'));
  }

  get size(): number {
    return this.opts.size;
  }

  /**
   * Seconds this node would take, from now, to decode `audioSeconds` more speech on all its decoders
   * behind what is already waiting.
   */
  estimateSeconds(audioSeconds: number): number {
    return ((this.pendingSeconds + audioSeconds) * this.secondsPerSecond) / this.opts.size;
  }

  decode(pcm: Int16Array, sampleRate: number, priority: DecodePriority, signal?: AbortSignal): Promise<string> {
    if (this.closed) return Promise.reject(new ProviderError(this.opts.id, 'the recogniser is shut down', true));
    return new Promise<string>((resolve, reject) => {
      const seconds = pcm.length / sampleRate;
      this.pendingSeconds += seconds;
      let settled = false;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        this.pendingSeconds -= seconds;
        signal?.removeEventListener('abort', onAbort);
        return true;
      };
      const job: Job = {
        pcm,
        sampleRate,
        priority,
        abandoned: false,
        resolve: (text) => settle() && resolve(text),
        reject: (e) => settle() && reject(e),
      };
      const onAbort = (): void => {
        job.abandoned = true;
        job.reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queues[priority].push(job);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of [...this.queues.live, ...this.queues.scan])
      job.reject(new ProviderError(this.opts.id, 'the recogniser is shut down', true));
    this.queues.live.length = 0;
    this.queues.scan.length = 0;
    for (const d of [...this.decoders]) this.kill(d);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private next(): Job | undefined {
    for (const q of [this.queues.live, this.queues.scan]) {
      while (q.length) {
        const job = q.shift()!;
        if (!job.abandoned) return job;
      }
    }
    return undefined;
  }

  private dispatch(): void {
    if (this.closed) return;
    for (;;) {
      let decoder = this.decoders.find((d) => d.job === null && !d.dead);
      if (!decoder && this.decoders.length < this.opts.size && this.hasWork()) decoder = this.spawn();
      if (!decoder) return;
      const job = this.next();
      if (!job) return;
      this.run(decoder, job);
    }
  }

  private hasWork(): boolean {
    return this.queues.live.some((j) => !j.abandoned) || this.queues.scan.some((j) => !j.abandoned);
  }

  private run(d: Decoder, job: Job): void {
    this.assign(d, job);
    d.name = `u${++this.seq}`;
    d.startedAt = performance.now();
    const file = path.join(this.dir, `${d.name}.raw`);
    const seconds = job.pcm.length / job.sampleRate;
    // A decoder that stops answering (wedged, or starved of CPU for far longer than any utterance needs)
    // is replaced, and the utterance fails rather than holding the call's transcript forever.
    d.watchdog = setTimeout(
      () => this.fail(d, `no answer after ${Math.round(60 + 10 * seconds)} s`),
      (60 + 10 * seconds) * 1000,
    );
    d.watchdog.unref();
    writeFile(file, new Uint8Array(job.pcm.buffer, job.pcm.byteOffset, job.pcm.byteLength)).then(
      () => {
        if (d.job === job && d.child.stdin.writable) d.child.stdin.write(`${d.name}\n`);
      },
      (e: Error) => this.fail(d, `cannot write the utterance: ${e.message}`),
    );
  }

  private answered(d: Decoder, line: string): void {
    const m = HYP.exec(line.trim());
    const job = d.job;
    if (!m || !job || m[2] !== d.name) return;
    clearTimeout(d.watchdog);
    const seconds = job.pcm.length / job.sampleRate;
    if (seconds >= 0.5) {
      const perSecond = (performance.now() - d.startedAt) / 1000 / seconds;
      this.secondsPerSecond = 0.8 * this.secondsPerSecond + 0.2 * perSecond;
    }
    void unlink(path.join(this.dir, `${d.name}.raw`)).catch(() => undefined);
    this.assign(d, null);
    job.resolve(m[1]!.trim());
    this.dispatch();
  }

  private fail(d: Decoder, why: string): void {
    const job = d.job;
    this.assign(d, null);
    this.kill(d);
    job?.reject(new ProviderError(this.opts.id, `recogniser failed: ${why}`, true));
    this.dispatch();
  }

  private spawn(): Decoder {
    const args = [
      ...this.opts.args,
      '-adcin',
      'yes',
      '-cepdir',
      this.dir,
      '-cepext',
      '.raw',
      '-ctl',
      '/dev/stdin',
      '-hyp',
      '/dev/stdout',
    ];
    // The decoder opens its control and output files by name, and a socket (what Node gives a child as
    // stdin and stdout) cannot be opened by name: a `cat` on each side turns it into a real pipe. Own
    // process group, so teardown ends them all; and when the decoder exits on its own, it takes the group
    // with it, or the shell would live on (holding the output open) until the next utterance is written.
    const script = 'cat | { "$0" "$@"; kill 0; } | cat';
    const child = spawn('/bin/sh', ['-c', script, this.opts.binary, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    const d: Decoder = { child, job: null, name: '', startedAt: 0, stdoutRest: '', stderrTail: '', dead: false };
    this.decoders.push(d);
    child.stdin.on('error', () => undefined); // its exit says why
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (t: string) => (d.stderrTail = (d.stderrTail + t).slice(-4096)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (t: string) => {
      const lines = (d.stdoutRest + t).split('\n');
      d.stdoutRest = lines.pop() ?? '';
      for (const line of lines) this.answered(d, line);
    });
    const gone = (why: string): void => {
      const at = this.decoders.indexOf(d);
      if (at < 0) return;
      this.decoders.splice(at, 1);
      clearTimeout(d.watchdog);
      if (!this.closed) this.opts.log.warn({ stt: this.opts.id, why }, 'stt: a recogniser process ended');
      d.dead = true;
      const job = d.job;
      this.assign(d, null);
      job?.reject(new ProviderError(this.opts.id, `recogniser failed: ${why}`, true));
      this.dispatch();
    };
    child.on('error', (e) => gone(`could not start: ${e.message}`));
    child.on('close', (code, sig) => {
      const last = d.stderrTail
        .split('\n')
        .filter((l) => /ERROR|FATAL/.test(l))
        .slice(-1)[0];
      gone(last?.trim() ?? `exit ${code ?? sig}`);
    });
    return d;
  }

  private kill(d: Decoder): void {
    d.dead = true;
    clearTimeout(d.watchdog);
    try {
      if (d.child.pid) process.kill(-d.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private assign(d: Decoder, job: Job | null): void {
    if (!d.job && job) metrics.sttDecodersBusy.inc();
    if (d.job && !job) metrics.sttDecodersBusy.dec();
    d.job = job;
  }
}
