import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The `voice` command. Each subcommand lives in `src/cli/<name>.ts` and exports
 * `run(argv: string[]): Promise<number | void>`; it is imported only when used.
 */
export const COMMANDS: Readonly<Record<string, string>> = {
  serve: 'Run a node: HTTP API, sockets and SIP (if enabled).',
  keys: 'Manage API keys: create --credits N [--label L] | list | credit KEY N.',
  scan: 'Score recordings or transcripts from files.',
  eval: 'Measure verdict quality on labelled transcripts.',
  bench: 'Run the benchmarks.',
};

type Subcommand = { run(argv: string[]): Promise<number | void> };

export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([c, d]) => `  ${c.padEnd(width)}  ${d}`);
  return ['Usage: voice <command> [options]', '       voice --version', '', 'Commands:', ...lines].join('\n');
}

/** The package's version, read from the package.json above this file (source tree or dist alike). */
export function version(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'voice-shield' && pkg.version) return pkg.version;
    } catch {
      // no package.json here: keep climbing
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

/**
 * `--opt=value` as `--opt value`, so every subcommand takes both spellings. Only long options are split;
 * a lone `--` ends the options and what follows is left as it is.
 */
export function splitOptionValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const m = /^(--[A-Za-z][\w-]*)=(.*)$/s.exec(a);
    if (m) out.push(m[1]!, m[2]!);
    else out.push(a);
  }
  return out;
}

/** Runs a subcommand; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = splitOptionValues(argv);
  if (name === '--version' || name === '-v' || name === 'version') {
    console.log(`voice-shield ${version()}`);
    return 0;
  }
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    console.error(`voice: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  let mod: Subcommand;
  try {
    // The `.js` specifier resolves to the compiled file in dist and to the `.ts` source under tsx.
    mod = (await import(`./${name}.js`)) as Subcommand;
  } catch (err) {
    if (isMissingModule(err, name)) {
      console.error(`voice ${name}: not available in this build`);
      return 2;
    }
    throw err;
  }
  const code = await mod.run(rest);
  return typeof code === 'number' ? code : 0;
}

function isMissingModule(err: unknown, name: string): boolean {
  const e = err as { code?: string; message?: string };
  return (
    (e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND') && (e.message ?? '').includes(`${name}.`)
  );
}

// Also runnable directly (`tsx src/cli/main.ts <command>`, as the npm scripts do).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
