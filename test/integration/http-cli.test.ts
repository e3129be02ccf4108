import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { NODE_FLAGS } from '../../src/node-flags.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = path.join(ROOT, 'bin', 'voice.js');

function baseEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    VOICE_DATA_DIR: dataDir,
    VOICE_HOST: '127.0.0.1',
    VOICE_PORT: '0',
    VOICE_SIP_PORT: '0',
    VOICE_STT: 'none',
    VOICE_DRAIN_SECONDS: '2',
    ...extra,
  };
}

function voice(dataDir: string, args: string[], extra: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    env: baseEnv(dataDir, extra),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Served {
  url: string;
  stderr: () => string;
  stdout: () => string;
  stop(): Promise<number | null>;
}

/** Runs `voice serve` and waits for the address it prints. */
function serve(dataDir: string, extra: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: baseEnv(dataDir, extra),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start: ${err}`));
    }, 20_000);
    let seen = false;
    child.stderr.on('data', (d) => {
      err += d;
      if (seen) return;
      const m = /serving (http:\/\/[^\s/]+)\/voice/.exec(err);
      // The dev-key line, when there is one, is written right after the address: give it a moment.
      if (m) {
        seen = true;
        clearTimeout(timer);
        setTimeout(
          () =>
            resolve({
              url: m[1]!,
              stderr: () => err,
              stdout: () => out,
              stop: async () => {
                child.kill('SIGTERM');
                return exited;
              },
            }),
          200,
        );
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${String(code)}: ${err}`));
    });
  });
}

describe('integration/http: the voice command', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-cli-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('creates, lists and credits keys; a created key works on the server', async () => {
    const created = voice(dir, ['keys', 'create', '--credits', '10', '--label', 'acme']);
    expect(created.code, created.stderr).to.equal(0);
    const key = created.stdout.trim();
    expect(key).to.match(/^vk_[A-Za-z0-9_-]{40,}$/);

    const listed = voice(dir, ['keys', 'list']);
    expect(listed.code).to.equal(0);
    const row = listed.stdout.split('\n').find((l) => l.includes('acme'))!;
    expect(row.split('\t').slice(1, 3)).to.deep.equal(['acme', '10']);
    expect(listed.stdout).not.to.include(key);

    const credited = voice(dir, ['keys', 'credit', key, '5']);
    expect(credited.code, credited.stderr).to.equal(0);
    expect(credited.stdout.trim().split('\t')[1]).to.equal('15');
    const byId = voice(dir, ['keys', 'credit', row.split('\t')[0]!, '-3']);
    expect(byId.stdout.trim().split('\t')[1]).to.equal('12');

    expect(voice(dir, ['keys', 'credit', 'vk_unknown', '5']).code).to.equal(1);
    const bad = voice(dir, ['keys', 'create', '--credits', 'lots']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('--credits');

    const node = await serve(dir);
    try {
      expect(node.stderr()).not.to.include('dev key'); // a key exists: no dev key is made
      const res = await fetch(`${node.url}/voice/sessions`, { headers: { 'X-Auth': key } });
      expect(res.status).to.equal(200);
    } finally {
      expect(await node.stop()).to.equal(0);
    }
    expect(node.stdout()).not.to.include(key);
  });

  it('makes a dev key on first start, keeps it 0600, shows it again later, and exits 0 on SIGTERM', async () => {
    const first = await serve(dir);
    let key: string;
    try {
      const m = /dev key created \(([^)]+)\): (\S+)/.exec(first.stderr());
      expect(m, first.stderr()).not.to.equal(null);
      key = m![2]!;
      expect(m![1]).to.equal(path.join(dir, 'dev-key.txt'));
      expect(fs.readFileSync(path.join(dir, 'dev-key.txt'), 'utf8').trim()).to.equal(key);
      expect(fs.statSync(path.join(dir, 'dev-key.txt')).mode & 0o777).to.equal(0o600);
      const res = await fetch(`${first.url}/voice/personas`, { headers: { 'X-Auth': key } });
      expect(res.status).to.equal(200);
    } finally {
      expect(await first.stop()).to.equal(0);
    }
    expect(first.stdout()).to.include('"msg":"stopped"');
    expect(first.stdout()).not.to.include(key);

    const second = await serve(dir);
    try {
      expect(second.stderr()).to.match(new RegExp(`dev key \\(.*\\): ${key}`));
      expect(second.stderr()).not.to.include('dev key created');
    } finally {
      expect(await second.stop()).to.equal(0);
    }
    const listed = voice(dir, ['keys', 'list']);
    expect(listed.stdout.trim().split('\n')).to.have.length(2); // header + the one dev key
    expect(listed.stdout).to.include('\tdev\t100000\t');
  });

  it('logs once when started without the node flags, and not when NODE_OPTIONS carries them', async () => {
    const bare = await serve(dir);
    expect(await bare.stop()).to.equal(0);
    const lines = bare
      .stdout()
      .split('\n')
      .filter((l) => l.includes('without the node flags'));
    expect(lines, bare.stdout()).to.have.length(1);
    expect(JSON.parse(lines[0]!).missing).to.deep.equal(NODE_FLAGS);

    const flagged = await serve(dir, { NODE_OPTIONS: NODE_FLAGS.join(' ') });
    expect(await flagged.stop()).to.equal(0);
    expect(flagged.stdout()).to.include('"msg":"stopped"');
    expect(flagged.stdout()).not.to.include('without the node flags');
  });

  it('refuses bad configuration naming the variable', () => {
    const r = voice(dir, ['serve'], { VOICE_PORT: 'eighty' });
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include('VOICE_PORT');
  });

  it('knows its commands', () => {
    const r = voice(dir, ['frobnicate']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include('unknown command');
    expect(voice(dir, ['--help']).stdout).to.include('keys');
  });
});
