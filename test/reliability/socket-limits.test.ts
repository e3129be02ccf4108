import { expect } from 'chai';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Socket upgrades take from the same per-key and per-address buckets as HTTP: 429 with Retry-After. */
describe('reliability: rate limits on socket upgrades', function () {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ VOICE_RATE_LIMIT: '5' });
  });
  after(async () => {
    await server.close();
  });

  const upgrade = (key: string) =>
    new Promise<{ status: number; retryAfter?: string; body: string }>((resolve) => {
      const ws = new WebSocket(`${server.wsUrl}/voice/filter/stream?key=${key}`);
      ws.on('open', () => {
        ws.close();
        resolve({ status: 101, body: '' });
      });
      ws.on('unexpected-response', (_q, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string, body }),
        );
      });
      ws.on('error', () => resolve({ status: -1, body: '' }));
    });

  it('answers the upgrade past the allowance 429 with Retry-After and the JSON error shape', async () => {
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await upgrade(server.key));
    expect(results.slice(0, 5).map((r) => r.status)).to.deep.equal([101, 101, 101, 101, 101]);
    const limited = results[5]!;
    expect(limited.status).to.equal(429);
    expect(Number(limited.retryAfter)).to.be.greaterThan(0);
    expect(JSON.parse(limited.body)).to.include({ status: 'error' });
    // The address bucket is spent too: another key from the same address is limited as well.
    expect((await upgrade(server.otherKey)).status).to.equal(429);
  });
});
