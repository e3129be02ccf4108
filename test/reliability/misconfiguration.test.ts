import { expect } from 'chai';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNodeProcess } from '../conformance/node-process.js';

/**
 * A setting chosen explicitly that cannot work stops `voice serve` at boot, with exit code 2 and one line
 * naming the variable, instead of a node that serves degraded while its health check stays green.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Exit {
  code: number | null;
  stderr: string;
}

/** Runs `voice serve` as an operator would and waits for it to exit (it must not start). */
function serveUntilExit(env: Record<string, string>): Promise<Exit> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-misconf-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
      cwd: ROOT,
      env: {
        ...process.env,
        VOICE_HOST: '127.0.0.1',
        VOICE_PORT: '0',
        VOICE_DATA_DIR: dataDir,
        VOICE_SIP_PORT: '0',
        VOICE_STT: 'none',
        VOICE_LLM: 'local',
        VOICE_LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // A node that started anyway is the defect: end it, and let the assertions say so.
    const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(guard);
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, stderr });
    });
  });
}

/** Exit 2, exactly one `voice:` line on stderr, naming the variable, and no stack trace. */
function expectStopped(exit: Exit, variable: string, says: RegExp): void {
  const lines = exit.stderr.split('\n').filter((l) => l.startsWith('voice:'));
  expect(exit.code, exit.stderr).to.equal(2);
  expect(lines, exit.stderr).to.have.length(1);
  expect(lines[0]).to.match(new RegExp(`^voice: bad configuration: ${variable}: `));
  expect(lines[0]).to.match(says);
  expect(exit.stderr).to.not.match(/^\s+at /m);
}

describe('misconfiguration stops the node (voice serve)', function () {
  this.timeout(180_000);

  it('VOICE_STT=whisper without VOICE_WHISPER_URL', async () => {
    expectStopped(await serveUntilExit({ VOICE_STT: 'whisper' }), 'VOICE_WHISPER_URL', /VOICE_STT=whisper/);
  });

  it('VOICE_LLM=openai without VOICE_OPENAI_BASE_URL', async () => {
    expectStopped(await serveUntilExit({ VOICE_LLM: 'openai' }), 'VOICE_OPENAI_BASE_URL', /VOICE_LLM=openai/);
  });

  it('a model file named in VOICE_MODEL_FILE that cannot be read, or is not a model', async () => {
    const missing = path.join(os.tmpdir(), 'voice-no-such-model.json');
    expectStopped(await serveUntilExit({ VOICE_MODEL_FILE: missing }), 'VOICE_MODEL_FILE', /ENOENT/);
    const garbage = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'voice-model-')), 'model.json');
    fs.writeFileSync(garbage, '{"not": "a model"');
    expectStopped(await serveUntilExit({ VOICE_MODEL_FILE: garbage }), 'VOICE_MODEL_FILE', /could not be loaded/);
  });

  it('VOICE_STT=sphinx where PocketSphinx is not installed (VOICE_STT=auto degrades and starts)', async () => {
    const emptyPath = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-path-'));
    expectStopped(
      await serveUntilExit({ VOICE_STT: 'sphinx', PATH: emptyPath }),
      'VOICE_STT',
      /PocketSphinx .* not installed/,
    );
    const node = await startNodeProcess({ VOICE_STT: 'auto', PATH: emptyPath, VOICE_FEATURES: 'scan,live_filter' });
    try {
      const caps = (await (await fetch(`${node.url}/voice/capabilities`)).json()) as { capabilities: { stt: string } };
      expect(caps.capabilities.stt).to.equal('none');
    } finally {
      await node.close();
    }
  });

  it('an eSpeak NG that cannot start while the honeypot is on; with the honeypot off the node starts', async () => {
    // A broken engine install: the speech worker process dies as it starts, the node itself is untouched.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-broken-espeak-'));
    const hook = path.join(dir, 'break-espeak.cjs');
    fs.writeFileSync(hook, "if (/espeak-worker/.test(process.argv[1] || '')) process.exit(3);\n");
    const broken = { NODE_OPTIONS: `--require ${hook}`, VOICE_TTS: 'espeak' };
    expectStopped(await serveUntilExit(broken), 'VOICE_TTS', /espeak cannot speak while the honeypot is on/);
    const node = await startNodeProcess({ ...broken, VOICE_FEATURES: 'scan,live_filter' });
    await node.close();
  });
});
