import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerOptions } from './protocol.js';

/** Built from src/ under tsx (a .ts worker) or from dist/ (a .js one): the worker is this file's sibling. */
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(`./worker${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);

/** tsx's ESM register API, found through its package.json from here (not from the working directory). */
function tsxRegisterUrl(): string {
  const pkgFile = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(path.join(path.dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
}

export function startWorker(options: WorkerOptions): Worker {
  return startModuleWorker(WORKER_URL, options);
}

/**
 * Starts the worker module at `url` (a .ts file when run from source, a .js one from dist/), with `data`
 * as its `workerData`.
 */
export function startModuleWorker(url: URL, data: unknown): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData: data });
  // Run from source (tests, development): Node 20 does not hand the TypeScript loader on to workers.
  const tsx = tsxRegisterUrl();
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { eval: true, workerData: data });
}
