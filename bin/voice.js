#!/usr/bin/env node
// The `voice` command: runs the compiled CLI when dist is current, otherwise the TypeScript sources.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'src', 'cli', 'main.js');

async function useBuilt() {
  if (!fs.existsSync(built)) return false;
  // Without sources (a deployed image) dist is all there is.
  if (!fs.existsSync(path.join(root, 'src'))) return true;
  const { buildProblem } = await import(pathToFileURL(path.join(root, 'scripts', 'ensure.mjs')).href);
  return buildProblem(root) === undefined;
}

let entry = built;
if (!(await useBuilt())) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = path.join(root, 'src', 'cli', 'main.ts');
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
