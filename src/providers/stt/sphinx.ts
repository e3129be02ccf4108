/*
 * CMU PocketSphinx as the embedded recogniser: one `pocketsphinx_continuous` child per transcribed
 * track, fed 16 kHz PCM on stdin. The recogniser cuts utterances itself (its own silence detection)
 * and prints one line per utterance, so this provider takes the continuous stream.
 *
 * Telephone audio (8 kHz at the source) has no energy above 4 kHz; the acoustic model's initial
 * cepstral means assume wideband speech, which makes the first seconds of a call unrecognisable until
 * the live normalisation adapts. For such audio the recogniser hears faint noise in the empty upper
 * band (band-fill.ts), or starts from telephone-band means; which one: sphinx-model.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Observable } from 'rxjs';
import type { Logger } from '../../log.js';
import { isExecutable, isReadable } from '../../util/files.js';
import { ProviderError } from '../llm/types.js';
import { bandFill } from './band-fill.js';
import { DECODER_ARGS, languageModel, TELEPHONE_FRONT_END } from './sphinx-model.js';
import type { SpeechToText, SttOptions, SttResult } from './types.js';

export interface SphinxInstall {
  binary: string;
  /** Acoustic model directory (holds mdef, means, feat.params …). */
  hmm: string;
  lm: string;
  dict: string;
  /** Model name shown in the provider id. */
  model: string;
}

const MODEL_ROOT = '/usr/share/pocketsphinx/model';
/** Cepstral means of telephone-band speech as this model sees it (measured on 8 kHz calls). */
const TELEPHONE_CMN = '56,32,-40,42,-33,15,-10,-22,7,-17,7,-8,-1';

/** Finds the recogniser and its US English model (Debian `pocketsphinx` + `pocketsphinx-en-us`). */
export function detectSphinx(env: Record<string, string | undefined> = process.env): SphinxInstall | null {
  const binary = (env.PATH ?? '/usr/bin')
    .split(path.delimiter)
    .map((dir) => path.join(dir, 'pocketsphinx_continuous'))
    .find(isExecutable);
  if (!binary) return null;
  const root = path.join(MODEL_ROOT, 'en-us');
  const { lm, dict, name } = languageModel();
  const install = { binary, hmm: path.join(root, 'en-us'), lm, dict, model: name };
  const files = [path.join(install.hmm, 'mdef'), path.join(install.hmm, 'feat.params'), install.lm, install.dict];
  return files.every(isReadable) ? install : null;
}

/** Below this source rate the audio is treated as telephone band. */
const NARROWBAND_MAX_RATE = 11_025;

export interface SphinxOptions {
  /**
   * Recogniser processes allowed at once (each takes about 110 MB and, while speech lasts, roughly
   * half a core or more; see bench/RESULTS.md). A track beyond the cap fails with a ProviderError (the
   * session carries on with text) rather than slowing every call on the node. Default: 2 per CPU.
   */
  maxProcesses?: number;
}

export function createSphinx(install: SphinxInstall, log: Logger, options: SphinxOptions = {}): SpeechToText {
  const maxProcesses = options.maxProcesses ?? 2 * os.availableParallelism();
  let running = 0;
  // The model's own feature parameters win over command-line flags, so telephone tuning needs its own file.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sphinx-'));
  const telephoneParams = path.join(dir, 'feat.params');
  const params = readFileSync(path.join(install.hmm, 'feat.params'), 'utf8');
  writeFileSync(telephoneParams, params.replace(/^-cmninit .*$/m, `-cmninit ${TELEPHONE_CMN}`));
  const id = `sphinx:${install.model}`;

  return {
    id,
    sampleRate: 16_000,
    wantsSegments: false,
    transcribe(audio$: Observable<Int16Array>, opts: SttOptions): Observable<SttResult> {
      return new Observable<SttResult>((out) => {
        if (running >= maxProcesses) {
          out.error(new ProviderError(id, `all ${maxProcesses} speech recognisers on this node are busy`, true));
          return;
        }
        if (opts.language && !/^en\b/i.test(opts.language)) {
          log.debug({ language: opts.language }, 'sphinx: only US English is installed; recognising as English');
        }
        const args = ['-infile', '/dev/stdin', '-hmm', install.hmm, '-lm', install.lm, '-dict', install.dict];
        args.push('-samprate', String(opts.sampleRate), ...DECODER_ARGS);
        const narrowband = opts.sourceRate !== undefined && opts.sourceRate <= NARROWBAND_MAX_RATE;
        const fill = narrowband && TELEPHONE_FRONT_END.bandFill ? bandFill(TELEPHONE_FRONT_END.bandFill) : undefined;
        if (narrowband && TELEPHONE_FRONT_END.telephoneMeans) args.push('-featparams', telephoneParams);
        // The recogniser opens its input by name, and a socket (what Node gives a child as stdin) cannot be
        // opened by name: `cat` turns it into a real pipe. Own process group, so teardown ends both.
        const child = spawn('/bin/sh', ['-c', 'cat | "$0" "$@"', install.binary, ...args], {
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true,
        });
        running += 1;
        let counted = true;
        const release = (): void => {
          if (counted) running -= 1;
          counted = false;
        };
        const kill = (): void => {
          try {
            if (child.pid) process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
        };
        let stderrTail = '';
        let stdoutRest = '';
        let finished = false;

        const fail = (message: string): void => {
          if (finished) return;
          finished = true;
          out.error(new ProviderError(id, message, true));
        };
        child.on('error', (err) => fail(`recogniser could not start: ${err.message}`));
        child.stdin.on('error', () => {
          // The child went away; its exit reports why.
        });
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (text: string) => {
          stderrTail = (stderrTail + text).slice(-4096);
        });
        child.stdout.setEncoding('utf8');
        child.stdout.on('data', (text: string) => {
          const lines = (stdoutRest + text).split('\n');
          stdoutRest = lines.pop() ?? '';
          for (const line of lines) {
            const words = line.trim();
            if (words) out.next({ text: words, final: true });
          }
        });
        child.on('close', (code, sig) => {
          release();
          if (finished) return;
          const last = stdoutRest.trim();
          if (last) out.next({ text: last, final: true });
          if (code === 0) {
            finished = true;
            out.complete();
            return;
          }
          const why =
            stderrTail
              .split('\n')
              .filter((l) => /ERROR|FATAL/.test(l))
              .slice(-1)[0] ?? `exit ${code ?? sig}`;
          fail(`recogniser failed: ${why.trim()}`);
        });

        const sub = audio$.subscribe({
          next(chunk) {
            if (chunk.length && child.stdin.writable) {
              const pcm = fill ? fill(chunk) : chunk;
              child.stdin.write(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
            }
          },
          error(e: unknown) {
            finished = true;
            kill();
            out.error(e);
          },
          complete() {
            child.stdin.end();
          },
        });

        return () => {
          sub.unsubscribe();
          if (child.exitCode === null && child.signalCode === null) kill();
        };
      });
    },
  };
}
