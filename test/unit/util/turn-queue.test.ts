import { expect } from 'chai';
import { TurnQueue } from '../../../src/util/turn-queue.js';

/** Resolves after the queue's immediate of this turn: other work of the loop, between two of its jobs. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TurnQueue', () => {
  it('runs one job per turn of the event loop, in order, never at push time', async () => {
    const ran: number[] = [];
    const q = new TurnQueue((e) => expect.fail(String(e)));
    for (const i of [1, 2, 3]) q.push(() => ran.push(i));
    expect(ran).to.deep.equal([]);
    expect(q.size).to.equal(3);
    await turn();
    expect(ran).to.deep.equal([1]);
    await turn();
    expect(ran).to.deep.equal([1, 2]);
    q.push(() => ran.push(4));
    await turn();
    await turn();
    expect(ran).to.deep.equal([1, 2, 3, 4]);
    expect(q.size).to.equal(0);
  });

  it('reports a job that throws and goes on with the next', async () => {
    const errors: unknown[] = [];
    const ran: string[] = [];
    const q = new TurnQueue((e) => errors.push(e));
    q.push(() => {
      throw new Error('boom');
    });
    q.push(() => ran.push('after'));
    await turn();
    await turn();
    expect(errors.map((e) => (e as Error).message)).to.deep.equal(['boom']);
    expect(ran).to.deep.equal(['after']);
  });
});
