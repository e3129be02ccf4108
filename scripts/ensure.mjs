#!/usr/bin/env node
/**
 * Makes a checkout runnable: installs dependencies with `npm ci` when node_modules is missing or does
 * not match package-lock.json, and compiles with tsc when dist is missing or older than the sources.
 * `--deps-only` skips the build (tests run the TypeScript directly). `--test-tools` also installs the
 * Debian programs the test suite drives (speech, SIP peer, browser) when one is missing and apt-get can run.
 * Without `--deps-only` (that is, `npm start`) it also sets up the embedded speech recogniser, or says in
 * one line why the node will serve text only.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['src', 'operators', 'pipelines'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package.json'];
export const BUILD_STAMP = path.join(ROOT, 'dist', '.built');

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Why node_modules needs `npm ci`, or undefined when every locked package is installed at its version. */
export function depsProblem(root = ROOT) {
  const lock = readJson(path.join(root, 'package-lock.json'));
  if (!lock?.packages) return undefined; // nothing to compare against: leave it to npm
  const installed = readJson(path.join(root, 'node_modules', '.package-lock.json'));
  if (!installed?.packages) return 'node_modules is missing';
  for (const [name, want] of Object.entries(lock.packages)) {
    if (!name.startsWith('node_modules/')) continue;
    const have = installed.packages[name];
    if (!have) {
      if (!want.optional) return `${name.slice('node_modules/'.length)} is not installed`;
    } else if (have.version !== want.version) {
      return `${name.slice('node_modules/'.length)} is ${have.version}, the lock wants ${want.version}`;
    }
  }
  return undefined;
}

function newestMtime(entry) {
  let st;
  try {
    st = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, name)));
  return newest;
}

/** Why dist must be rebuilt, or undefined when it is newer than every source. */
export function buildProblem(root = ROOT) {
  const stamp = path.join(root, 'dist', '.built');
  if (!fs.existsSync(stamp)) return 'dist is missing';
  const built = fs.statSync(stamp).mtimeMs;
  const sources = [...SOURCE_DIRS, ...SOURCE_FILES].map((p) => newestMtime(path.join(root, p)));
  return Math.max(...sources) > built ? 'sources changed since the last build' : undefined;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`${cmd} ${args.join(' ')} failed`);
    process.exit(r.status ?? 1);
  }
}

/** Debian package → the program the tests run from it. */
const TEST_TOOLS = {
  ffmpeg: 'ffmpeg',
  sox: 'sox',
  'espeak-ng': 'espeak-ng',
  flite: 'flite',
  pocketsphinx: 'pocketsphinx_continuous',
  'pocketsphinx-en-us': null, // model files only, installed with pocketsphinx
  'sip-tester': 'sipp',
  'baresip-core': 'baresip',
  kamailio: 'kamailio',
  chromium: 'chromium',
  curl: 'curl',
};

function onPath(program) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, program)));
}

/** The Debian packages of the embedded recogniser and the files the service looks for (see sphinx.ts). */
export const SPEECH_PACKAGES = ['pocketsphinx', 'pocketsphinx-en-us'];
const SPEECH_MODEL = '/usr/share/pocketsphinx/model/en-us/en-us/mdef';

/**
 * What `npm start` does about the embedded recogniser. Pure: the caller reports the machine.
 * Returns `{ action: 'ready' | 'skip' }` or `{ action: 'install', sudo }`, with the line to print when
 * the node will serve text only. Only the recognisers that would use PocketSphinx (`VOICE_STT` unset,
 * `auto` or `sphinx`) ask for it: a node set to a remote recogniser or `none` installs nothing.
 */
export function speechSetup({ stt, installed, aptGet, root, sudo }) {
  const mode = (stt ?? 'auto').trim().toLowerCase() || 'auto';
  if (mode !== 'auto' && mode !== 'sphinx') return { action: 'ready' };
  if (installed) return { action: 'ready' };
  const fix = `apt-get install ${SPEECH_PACKAGES.join(' ')}`;
  if (!aptGet) {
    return { action: 'skip', message: `speech: no apt-get to install PocketSphinx; serving text only (${fix})` };
  }
  if (!root && !sudo) {
    return {
      action: 'skip',
      message: `speech: PocketSphinx is missing and this user cannot run apt-get (not root, no password-less sudo); serving text only (${fix})`,
    };
  }
  return { action: 'install', sudo: !root };
}

function aptGet(sudo, args) {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const [cmd, ...rest] = sudo ? ['sudo', '-n', 'apt-get', ...args] : ['apt-get', ...args];
  return spawnSync(cmd, rest, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
}

/** Installs the embedded recogniser when it is missing and apt-get can run; else one line on stderr. */
function ensureSpeech() {
  const root = process.getuid?.() === 0;
  const plan = speechSetup({
    stt: process.env.VOICE_STT,
    installed: onPath('pocketsphinx_continuous') && fs.existsSync(SPEECH_MODEL),
    aptGet: onPath('apt-get'),
    root,
    sudo: !root && onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
  });
  if (plan.action === 'skip') console.error(plan.message);
  if (plan.action !== 'install') return;
  console.error(`Installing the embedded speech recogniser (${SPEECH_PACKAGES.join(' ')}) ...`);
  const ok =
    aptGet(plan.sudo, ['install', '-y', '--no-install-recommends', ...SPEECH_PACKAGES]) ||
    (aptGet(plan.sudo, ['update']) &&
      aptGet(plan.sudo, ['install', '-y', '--no-install-recommends', ...SPEECH_PACKAGES]));
  if (!ok) console.error('speech: apt-get could not install PocketSphinx; serving text only');
}

/** Installs missing test programs with apt-get (as root, or through sudo); says what it could not do. */
/** Debian packages only the spoken-call benchmarks use (the natural HTS voice), for `npm run bench`. */
const BENCH_TOOLS = {
  festival: 'text2wave',
  'festvox-us-slt-hts': null, // the voice, used through festival
};

function ensureTestTools(tools = TEST_TOOLS, who = 'Tests') {
  const missing = Object.entries(tools).filter(([, program]) => program && !onPath(program));
  if (missing.length === 0) return;
  const names = Object.keys(tools);
  if (!onPath('apt-get')) {
    console.error(
      `${who} that drive ${missing.map(([p]) => p).join(', ')} will skip or fail: install them (${names.join(' ')}).`,
    );
    return;
  }
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  console.error(`Installing the ${who.toLowerCase()}' programs (${missing.map(([p]) => p).join(', ')} missing) ...`);
  const apt = (args) =>
    spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), ...args], {
      stdio: 'inherit',
      env,
    });
  apt(['update']);
  if (apt(['install', '-y', '--no-install-recommends', ...names]).status !== 0) {
    console.error(`apt-get install failed: ${who.toLowerCase()} that need these programs will fail.`);
  }
}

/** Where the metrics test finds promtool when it is not on PATH. */
export const PROMTOOL_DIR = path.join(ROOT, 'test', '.tmp', 'tools', 'prometheus');

/**
 * promtool (the metrics test checks the exposition with it) from Debian's `prometheus` package, unpacked
 * with `dpkg -x` so the Prometheus service itself is never installed or started.
 */
function ensurePromtool() {
  if (onPath('promtool') || fs.existsSync(path.join(PROMTOOL_DIR, 'usr', 'bin', 'promtool'))) return;
  if (!onPath('apt-get') || !onPath('dpkg')) {
    console.error("The metrics test needs promtool: unpack Debian's prometheus package (apt-get download prometheus).");
    return;
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'promtool-'));
  console.error('Fetching promtool (apt-get download prometheus) ...');
  const got = spawnSync('apt-get', ['download', 'prometheus'], { cwd: tmp, stdio: 'inherit' });
  const deb = fs.readdirSync(tmp).find((f) => f.endsWith('.deb'));
  fs.mkdirSync(PROMTOOL_DIR, { recursive: true });
  if (got.status !== 0 || !deb || spawnSync('dpkg', ['-x', path.join(tmp, deb), PROMTOOL_DIR]).status !== 0) {
    console.error('Could not unpack promtool: the metrics check will skip.');
  }
  fs.rmSync(tmp, { recursive: true, force: true });
}

function main() {
  if (process.argv.includes('--test-tools')) {
    ensureTestTools();
    ensurePromtool();
  }
  if (process.argv.includes('--bench-tools')) ensureTestTools({ ...TEST_TOOLS, ...BENCH_TOOLS }, 'Benchmarks');
  const depsOnly = process.argv.includes('--deps-only');
  const deps = depsProblem();
  if (deps) {
    console.error(`Installing dependencies (${deps}) ...`);
    run('npm', ['ci', '--no-audit', '--no-fund']);
  }
  if (depsOnly) return;
  ensureSpeech();
  const build = buildProblem();
  if (build) {
    console.error(`Building (${build}) ...`);
    fs.rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });
    run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json']);
    fs.writeFileSync(BUILD_STAMP, `${new Date().toISOString()}\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
