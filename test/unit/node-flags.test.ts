import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { missingNodeFlags, NODE_FLAGS } from '../../src/node-flags.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string): string => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('node flags', () => {
  it('are all missing from a bare node, and none when given as arguments or in NODE_OPTIONS', () => {
    expect(NODE_FLAGS).to.not.be.empty;
    expect(missingNodeFlags([], '')).to.deep.equal(NODE_FLAGS);
    expect(missingNodeFlags([...NODE_FLAGS, '--enable-source-maps'], '')).to.deep.equal([]);
    expect(missingNodeFlags([], ` --inspect ${NODE_FLAGS.join('  ')} `)).to.deep.equal([]);
    // A flag with another value is not the flag.
    expect(missingNodeFlags(['--max-semi-space-size=64'], '')).to.deep.equal(NODE_FLAGS);
  });

  it('are passed by npm start and the image', () => {
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const cmd = /^CMD \[(.*)\]$/m.exec(read('Dockerfile'));
    expect(cmd, 'the Dockerfile has a CMD').to.not.equal(null);
    for (const flag of NODE_FLAGS) {
      expect(pkg.scripts.start!.split(' '), 'npm start').to.include(flag);
      expect(JSON.parse(`[${cmd![1]}]`), 'Dockerfile CMD').to.include(flag);
    }
  });
});
