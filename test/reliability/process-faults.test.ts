import { expect } from 'chai';
import path from 'node:path';
import { alive, spawnNode, tempDataDir, type NodeProcess } from './helpers/node-process.js';

const CRASH = path.join(import.meta.dirname, 'helpers', 'crash-on-signal.mjs');

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Process-level failures an operator meets: a port already taken, a bug that throws out of every handler. */
describe('reliability: process faults', function () {
  this.timeout(90_000);
  const nodes: NodeProcess[] = [];
  after(async () => {
    await Promise.all(nodes.map((n) => n.kill()));
  });

  it('refuses to start a second node on a port another node holds: one line naming VOICE_PORT, exit 1', async () => {
    const first = await spawnNode({ dataDir: tempDataDir() });
    nodes.push(first);
    const second = await spawnNode({ dataDir: tempDataDir(), port: first.port, noWait: true });
    nodes.push(second);
    const { code } = await second.exited;
    expect(code).to.equal(1);
    const lines = second.stderr().trim().split('\n');
    expect(lines, second.stderr()).to.have.length(1);
    expect(lines[0]).to.match(
      /^voice: cannot start: VOICE_PORT: cannot listen on 127\.0\.0\.1:\d+ \(the port is in use\)$/,
    );
    expect(second.stderr()).to.not.include('    at ');
    const fatal = jsonLines(second.stdout()).find((l) => l.level === 60);
    expect(fatal?.msg).to.equal('cannot start');
    // The first node still serves, alone.
    expect(await alive(first)).to.equal(true);
  });

  for (const kind of ['exception', 'rejection'] as const) {
    it(`logs an unhandled ${kind} as one fatal JSON line and exits 1, with no raw trace`, async () => {
      const node = await spawnNode({
        dataDir: tempDataDir(),
        env: { NODE_OPTIONS: `--import=${CRASH}`, CRASH_KIND: kind },
      });
      nodes.push(node);
      node.child.kill('SIGUSR2');
      const { code } = await node.exited;
      expect(code).to.equal(1);
      const fatal = jsonLines(node.stdout()).filter((l) => l.level === 60);
      expect(fatal, node.stdout().slice(-2000)).to.have.length(1);
      expect(fatal[0]!.msg).to.equal(
        kind === 'exception' ? 'uncaught exception: exiting' : 'unhandled rejection: exiting',
      );
      expect((fatal[0]!.err as { message?: string }).message).to.equal(`planted ${kind}`);
      expect(node.stderr()).to.not.include('planted');
    });
  }
});
