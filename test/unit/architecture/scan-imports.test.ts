import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scanImports } from './scan-imports.js';
import { buildGraph, findCycles, listSources, type ImportGraph } from './import-graph.js';

describe('architecture: reading imports', () => {
  it('finds static, type, side-effect, re-export and dynamic imports, over several lines', () => {
    const src = [
      "import x from './a.js';",
      "import type { T } from './b.js';",
      'import { type U, v } from "./c.js";',
      "import * as ns from './d.js';",
      'import def, {',
      '  named,',
      "} from '../e.js';",
      "import './f.js';",
      "export { g } from './g.js';",
      "export * from './h.js';",
      "export * as hh from './hh.js';",
      "export type { I } from './i.js';",
      "const m = await import('./j.js');",
      'const n = await import(`./k.js`);',
    ].join('\n');
    expect(scanImports(src)).to.deep.equal([
      { specifier: './a.js', kind: 'static' },
      { specifier: './b.js', kind: 'static' },
      { specifier: './c.js', kind: 'static' },
      { specifier: './d.js', kind: 'static' },
      { specifier: '../e.js', kind: 'static' },
      { specifier: './f.js', kind: 'side-effect' },
      { specifier: './g.js', kind: 're-export' },
      { specifier: './h.js', kind: 're-export' },
      { specifier: './hh.js', kind: 're-export' },
      { specifier: './i.js', kind: 're-export' },
      { specifier: './j.js', kind: 'dynamic' },
      { specifier: './k.js', kind: 'dynamic' },
    ]);
  });

  it('ignores imports in comments and strings, local exports, import.meta and computed dynamic imports', () => {
    const src = [
      "// import a from './a.js';",
      "/* import b from './b.js'; */",
      'const s = "import c from \'./c.js\'";',
      "const r = /import d from '.\\/d.js'/;",
      'const t = `${x} import e from "./e.js"`;',
      'export { local };',
      "export const from = 'x';",
      'const u = import.meta.url;',
      'const m = await import(`./${name}.js`);',
      'const q = a / b; const w = "not a regex /";',
      "import z from './z.js';",
    ].join('\n');
    expect(scanImports(src)).to.deep.equal([{ specifier: './z.js', kind: 'static' }]);
  });

  it('reports each loop as the path that closes it', () => {
    const g: ImportGraph = {
      files: ['a', 'b', 'c', 'd'],
      unresolved: [],
      edges: new Map([
        ['a', [{ from: 'a', to: 'b', specifier: '', kind: 'static' }]],
        [
          'b',
          [
            { from: 'b', to: 'a', specifier: '', kind: 'static' },
            { from: 'b', to: 'c', specifier: '', kind: 'static' },
          ],
        ],
        ['c', [{ from: 'c', to: 'c', specifier: '', kind: 'dynamic' }]],
        ['d', [{ from: 'd', to: 'a', specifier: '', kind: 'static' }]],
      ]),
    };
    expect(findCycles(g)).to.deep.equal([
      ['a', 'b', 'a'],
      ['c', 'c'],
    ]);
  });

  it('resolves NodeNext `.js` specifiers to the sources, leaves packages out and names what resolves to nothing', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
    try {
      const write = (rel: string, text: string): void => {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), text);
      };
      write('src/a.ts', "import { b } from './b.js';\nimport { c } from '../lib/c.js';\nimport { of } from 'rxjs';\n");
      write('src/b.ts', "import './gone.js';\nexport const b = 1;\n");
      write('lib/c.ts', 'export const c = 1;\n');
      const g = buildGraph(root, listSources(root, ['src', 'lib']));
      expect(g.files).to.deep.equal(['lib/c.ts', 'src/a.ts', 'src/b.ts']);
      expect(g.edges.get('src/a.ts')!.map((e) => e.to)).to.deep.equal(['src/b.ts', 'lib/c.ts']);
      expect(g.unresolved).to.deep.equal([{ from: 'src/b.ts', specifier: './gone.js' }]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
