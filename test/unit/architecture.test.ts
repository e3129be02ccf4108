import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { buildGraph, findCycles, listSources, type Edge } from './architecture/import-graph.js';

/*
 * The layering of the service's sources, read from their imports (static, `import type`, re-exports and
 * dynamic imports alike: a type import still ties the layers' designs together).
 *
 *   operators/  stream stages; used by pipelines/ and by each other, never by src/
 *   pipelines/  session graphs built from the operators
 *   src/transport/  wire formats and call signalling; knows nothing of the server, sessions, the store
 *                   or the pipelines, and reaches them only through ports handed to it
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const graph = buildGraph(ROOT, listSources(ROOT, ['src', 'pipelines', 'operators']));
const allEdges = [...graph.edges.values()].flat();

const show = (e: Edge): string => `${e.from} > ${e.to} (${e.kind} '${e.specifier}')`;
const under = (file: string, prefixes: readonly string[]): boolean =>
  prefixes.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));

describe('architecture: imports between the layers', () => {
  it('reads the whole source tree, and every relative import names a file', () => {
    expect(graph.files).to.include.members(['src/main.ts', 'pipelines/filter.ts', 'operators/transcribe.ts']);
    expect(allEdges.length, 'edges found').to.be.greaterThan(graph.files.length);
    expect(graph.unresolved.map((u) => `${u.from}: '${u.specifier}'`)).to.deep.equal([]);
  });

  it('src/transport/ imports nothing of the server, sessions, the store, the pipelines or the service bag', () => {
    const forbidden = ['src/server/', 'src/session/', 'src/store/', 'pipelines/', 'src/services.ts'];
    const violations = allEdges.filter((e) => e.from.startsWith('src/transport/') && under(e.to, forbidden));
    expect(violations.map(show), 'transport must reach these only through ports').to.deep.equal([]);
  });

  it('nothing in src/ imports operators/ (only pipelines/ and operators/ may)', () => {
    const violations = allEdges.filter((e) => e.from.startsWith('src/') && e.to.startsWith('operators/'));
    expect(violations.map(show), 'operators are pipeline stages').to.deep.equal([]);
  });

  it('no import cycle between files', () => {
    const cycles = findCycles(graph).map((c) => c.join(' > '));
    expect(cycles, 'import cycles').to.deep.equal([]);
  });
});
