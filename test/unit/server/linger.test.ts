import { expect } from 'chai';
import net from 'node:net';
import { heldConnections, lingerForConnections } from '../../../src/server/linger.js';

describe('linger for connections at exit', function () {
  it('counts the connections a process still holds on a port, and waits until they are gone', async function () {
    const accepted: net.Socket[] = [];
    const server = net.createServer((s) => accepted.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const client = net.connect(port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    while (accepted.length === 0) await new Promise((r) => setTimeout(r, 5));
    server.close();
    const held = await heldConnections(port);
    if (held === null) this.skip(); // no /proc/net/tcp on this system
    expect(held).to.equal(1);

    // The peer finishes its side a little later; the linger returns as soon as nothing is held.
    setTimeout(() => {
      client.end();
      accepted[0]!.end();
    }, 100);
    const t0 = Date.now();
    expect(await lingerForConnections(port, 2000)).to.equal(0);
    expect(Date.now() - t0).to.be.below(1500);
  });

  it('gives up after its bound when a connection stays open', async function () {
    const server = net.createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const client = net.connect(port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    if ((await heldConnections(port)) === null) this.skip();
    expect(await lingerForConnections(port, 150)).to.be.above(0);
    client.destroy();
    server.close();
  });
});
