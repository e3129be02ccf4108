/*
 * eSpeak NG in its own process. eSpeak NG is GPL-3.0: it runs here, as a separate program the service
 * talks to over stdio, and is never linked into the service process. It also blocks while it speaks,
 * which would stall every live call if it ran on the service's event loop.
 * Protocol: see ./frames.ts.
 */
import readline from 'node:readline';
import { encodeResponse, type SynthRequest } from './frames.js';

const MAX_TEXT = 2000;

async function main(): Promise<void> {
  const { default: init } = await import('@echogarden/espeak-ng-emscripten');
  const m = await init();
  const engine = new m.eSpeakNGWorker();
  const defaults = { rate: 175, pitch: 50 };

  const write = (b: Buffer): void => {
    process.stdout.write(b);
  };

  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    let req: SynthRequest;
    try {
      req = JSON.parse(line) as SynthRequest;
    } catch {
      return; // not ours to answer: no id
    }
    try {
      const text = String(req.text ?? '').slice(0, MAX_TEXT);
      if (engine.set_voice(String(req.voice || 'en-us')) !== 0) throw new Error(`unknown voice ${req.voice}`);
      engine.set_rate(clamp(req.rate ?? defaults.rate, 80, 400));
      engine.set_pitch(clamp(req.pitch ?? defaults.pitch, 0, 100));
      const parts: Int16Array[] = [];
      engine.synthesize(text, (samples) => {
        parts.push(samples);
        return 0;
      });
      const total = parts.reduce((n, p) => n + p.length, 0);
      const pcm = new Int16Array(total);
      let at = 0;
      for (const p of parts) {
        pcm.set(p, at);
        at += p.length;
      }
      write(encodeResponse({ id: req.id, ok: true, sampleRate: engine.get_samplerate() }, pcm));
    } catch (err) {
      write(encodeResponse({ id: req.id, ok: false, error: (err as Error).message }, null));
    }
  });
  rl.on('close', () => process.exit(0));
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, Math.round(n)));
}

main().catch((err: unknown) => {
  process.stderr.write(`espeak worker failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
