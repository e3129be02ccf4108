/*
 * The import graph of the service's own sources: one node per file (repository-relative, `/`-separated),
 * one edge per relative import that lands on another source file. Package imports are not edges: the
 * layering rules are about our own modules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { scanImports, type ImportRef } from './scan-imports.js';

export interface Edge extends ImportRef {
  from: string;
  /** The file the specifier resolves to, repository-relative. */
  to: string;
}

export interface ImportGraph {
  files: string[];
  /** Edges by importing file, in source order. */
  edges: Map<string, Edge[]>;
  /** Relative specifiers that name no file at all (a scanner or resolver mistake, or a broken import). */
  unresolved: Array<{ from: string; specifier: string }>;
}

/** Every `.ts` file under the given folders of `root`, sorted. */
export function listSources(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts')) out.push(child);
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

/** NodeNext specifiers name the emitted `.js`; the source is the `.ts` beside it. */
function resolve(root: string, from: string, specifier: string): string | null {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    `${base}.ts`,
    `${base}/index.ts`,
  ];
  for (const c of candidates) {
    const abs = path.join(root, c);
    if (fs.existsSync(abs) && fs.statSync(abs).isFile()) return c;
  }
  return null;
}

export function buildGraph(root: string, files: readonly string[]): ImportGraph {
  const known = new Set(files);
  const edges = new Map<string, Edge[]>();
  const unresolved: ImportGraph['unresolved'] = [];
  for (const from of files) {
    const list: Edge[] = [];
    for (const ref of scanImports(fs.readFileSync(path.join(root, from), 'utf8'))) {
      if (!ref.specifier.startsWith('.')) continue;
      const to = resolve(root, from, ref.specifier);
      if (to === null) unresolved.push({ from, specifier: ref.specifier });
      else if (known.has(to)) list.push({ ...ref, from, to });
    }
    edges.set(from, list);
  }
  return { files: [...files], edges, unresolved };
}

/**
 * Import cycles, each as the path that closes it (`a > b > a`). A depth-first walk in file order reports
 * a cycle at every edge back to a file still on the walk's path, so every strongly connected group of
 * files shows at least one of its cycles, and each import that closes a loop is named once.
 */
export function findCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string): void => {
    onPath.push(file);
    const targets = [...new Set((graph.edges.get(file) ?? []).map((e) => e.to))];
    for (const to of targets) {
      if (done.has(to)) continue;
      const at = onPath.indexOf(to);
      if (at >= 0) cycles.push([...onPath.slice(at), to]);
      else visit(to);
    }
    onPath.pop();
    done.add(file);
  };
  for (const f of graph.files) if (!done.has(f)) visit(f);
  return cycles;
}
