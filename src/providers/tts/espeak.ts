/*
 * eSpeak NG voice, spoken by a child process (./espeak-worker.ts) so the GPL-3.0 engine stays out of the
 * service process and its blocking synthesis never stalls the event loop. One child serves the node;
 * requests queue in it. A crashed child fails its pending requests and is restarted on the next one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../log.js';
import { ProviderError } from '../errors.js';
import { ResponseReader, type SynthRequest } from './frames.js';
import type { SpeechAudio, TextToSpeech, VoiceOptions } from './types.js';

interface Pending {
  resolve: (a: SpeechAudio) => void;
  reject: (e: Error) => void;
}

export interface EspeakOptions {
  log?: Logger;
  /** Longest one synthesis may take before it is reported as refused. */
  timeoutMs?: number;
  /** Start the engine now rather than on the first request, so the first caller hears no dead air. */
  eager?: boolean;
}

/** The worker sits next to this file; under tsx it is the .ts source, once built the .js output. */
function workerCommand(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  const ts = here.endsWith('.ts');
  const file = here.replace(/espeak\.(ts|js)$/, ts ? 'espeak-worker.ts' : 'espeak-worker.js');
  return { file, execArgv: ts ? ['--import', 'tsx'] : [] };
}

export function createEspeak(opts: EspeakOptions = {}): TextToSpeech {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  let child: ChildProcess | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failAll = (message: string): void => {
    for (const p of pending.values()) p.reject(new ProviderError('espeak', message, true));
    pending.clear();
  };

  const start = (): ChildProcess => {
    if (child) return child;
    const { file, execArgv } = workerCommand();
    const c = spawn(process.execPath, [...execArgv, file], { stdio: ['pipe', 'pipe', 'pipe'] });
    const reader = new ResponseReader();
    c.stdout!.on('data', (chunk: Buffer) => {
      for (const { header, pcm } of reader.push(chunk)) {
        const p = pending.get(header.id);
        if (!p) continue; // abandoned (aborted or timed out)
        pending.delete(header.id);
        if (header.ok) p.resolve({ pcm, sampleRate: header.sampleRate });
        else p.reject(new ProviderError('espeak', header.error));
      }
    });
    c.stderr!.on('data', (d: Buffer) => opts.log?.warn({ provider: 'espeak' }, d.toString().trim()));
    c.on('exit', (code, sig) => {
      if (child === c) child = null;
      failAll(`speech engine stopped (${sig ?? code})`);
    });
    c.on('error', (err) => {
      if (child === c) child = null;
      failAll(`speech engine unavailable: ${err.message}`);
    });
    c.stdin!.on('error', () => undefined); // surfaced by 'exit'
    child = c;
    return c;
  };

  if (opts.eager) start();

  return {
    id: 'espeak:espeak-ng',
    voiceKind: 'espeak',
    synthesize(text: string, voice: string, signal: AbortSignal, options?: VoiceOptions): Promise<SpeechAudio> {
      if (signal.aborted) return Promise.reject(new ProviderError('espeak', 'aborted'));
      const id = nextId++;
      const req: SynthRequest = { id, text, voice, rate: options?.rate, pitch: options?.pitch };
      return new Promise<SpeechAudio>((resolve, reject) => {
        const timer = setTimeout(
          () => done(new ProviderError('espeak', 'speech synthesis timed out', true)),
          timeoutMs,
        );
        const onAbort = (): void => done(new ProviderError('espeak', 'aborted'));
        const done = (err: Error | null, audio?: SpeechAudio): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          pending.delete(id);
          if (err) reject(err);
          else resolve(audio!);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        pending.set(id, { resolve: (a) => done(null, a), reject: (e) => done(e) });
        start().stdin!.write(JSON.stringify(req) + '\n');
      });
    },
    async close(): Promise<void> {
      const c = child;
      child = null;
      if (!c) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        c.stdin!.end();
        setTimeout(() => c.kill('SIGKILL'), 2000).unref();
      });
    },
  };
}
