import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

interface SpeechMachine {
  stt?: string;
  installed: boolean;
  aptGet: boolean;
  root: boolean;
  sudo: boolean;
}
interface Ensure {
  depsProblem(root: string): string | undefined;
  buildProblem(root: string): string | undefined;
  speechSetup(m: SpeechMachine): { action: 'ready' | 'skip' | 'install'; sudo?: boolean; message?: string };
}

const ensurePath = path.resolve(import.meta.dirname, '../../../scripts/ensure.mjs');
const { depsProblem, buildProblem, speechSetup } = (await import(ensurePath)) as Ensure;

function write(root: string, rel: string, content: unknown): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
}

function setMtime(root: string, rel: string, seconds: number): void {
  fs.utimesSync(path.join(root, rel), seconds, seconds);
}

describe('scripts/ensure (npm start and npm test preparation)', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-ensure-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const lock = {
    packages: {
      '': { name: 'x' },
      'node_modules/a': { version: '1.0.0' },
      'node_modules/b': { version: '2.0.0', optional: true },
    },
  };

  it('asks for npm ci when node_modules is missing', () => {
    write(root, 'package-lock.json', lock);
    expect(depsProblem(root)).to.equal('node_modules is missing');
  });

  it('asks for npm ci when a locked package is absent or at another version', () => {
    write(root, 'package-lock.json', lock);
    write(root, 'node_modules/.package-lock.json', { packages: {} });
    expect(depsProblem(root)).to.equal('a is not installed');
    write(root, 'node_modules/.package-lock.json', { packages: { 'node_modules/a': { version: '0.9.0' } } });
    expect(depsProblem(root)).to.equal('a is 0.9.0, the lock wants 1.0.0');
  });

  it('is satisfied when every required package matches, optional ones may be missing', () => {
    write(root, 'package-lock.json', lock);
    write(root, 'node_modules/.package-lock.json', { packages: { 'node_modules/a': { version: '1.0.0' } } });
    expect(depsProblem(root)).to.equal(undefined);
  });

  it('rebuilds when dist is missing or older than any source', () => {
    write(root, 'src/a.ts', 'export {};');
    write(root, 'pipelines/p.ts', 'export {};');
    expect(buildProblem(root)).to.equal('dist is missing');
    write(root, 'dist/.built', 'now');
    setMtime(root, 'src/a.ts', 1000);
    setMtime(root, 'pipelines/p.ts', 1000);
    setMtime(root, 'dist/.built', 2000);
    expect(buildProblem(root)).to.equal(undefined);
    setMtime(root, 'pipelines/p.ts', 3000);
    expect(buildProblem(root)).to.equal('sources changed since the last build');
  });

  describe('embedded recogniser on npm start', () => {
    const fresh = { installed: false, aptGet: true, root: false, sudo: false };

    it('installs with apt-get as root, through sudo otherwise', () => {
      expect(speechSetup({ ...fresh, root: true })).to.deep.equal({ action: 'install', sudo: false });
      expect(speechSetup({ ...fresh, sudo: true })).to.deep.equal({ action: 'install', sudo: true });
      expect(speechSetup({ ...fresh, stt: 'sphinx', root: true }).action).to.equal('install');
    });

    it('does nothing when it is installed or another recogniser is chosen', () => {
      expect(speechSetup({ ...fresh, installed: true, root: true }).action).to.equal('ready');
      for (const stt of ['none', 'aws', 'whisper', 'replay']) {
        expect(speechSetup({ ...fresh, stt, root: true }).action, stt).to.equal('ready');
      }
    });

    it('says in one line that the node serves text only when it cannot install', () => {
      for (const machine of [fresh, { ...fresh, aptGet: false, root: true }]) {
        const plan = speechSetup(machine);
        expect(plan.action).to.equal('skip');
        expect(plan.message).to.match(
          /^speech: .*serving text only \(apt-get install pocketsphinx pocketsphinx-en-us\)$/,
        );
        expect(plan.message).not.to.include('\n');
      }
    });
  });
});
