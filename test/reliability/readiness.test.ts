import { expect } from 'chai';
import { startFakeMongo, type FakeMongo } from '../fixtures/fake-mongo/server.js';
import { startWhisperServer, type WhisperServer } from '../fixtures/stt-servers/whisper.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { cuttableLink, type Link } from './helpers/link.js';
import { eventually, spawnNode, tempDataDir, testKey, type NodeProcess } from './helpers/node-process.js';

interface Health {
  status: number;
  body: { status: string; message?: string; ready: boolean; checks: Record<string, string> };
}

async function health(url: string): Promise<Health> {
  const res = await fetch(`${url}/voice/health`);
  return { status: res.status, body: (await res.json()) as Health['body'] };
}

/** Polls readiness until it is `ready` (results are cached for a second, so a change shows within about that). */
function readiness(url: string, ready: boolean): Promise<Health> {
  return eventually(async () => {
    const h = await health(url);
    return h.body.ready === ready ? h : undefined;
  }, 20_000);
}

/** Liveness stays where it was: a node that is alive but not ready is taken out of rotation, not restarted. */
async function alive(url: string): Promise<boolean> {
  return (await fetch(`${url}/voice/capabilities`)).status === 200;
}

describe('reliability: readiness (GET /voice/health)', function () {
  this.timeout(90_000);

  describe('with the store unreachable', () => {
    let mongo: FakeMongo;
    let link: Link;
    let node: NodeProcess;

    before(async () => {
      mongo = await startFakeMongo();
      link = await cuttableLink(Number(new URL(mongo.url).port));
      node = await spawnNode({
        dataDir: tempDataDir(),
        nodeId: 'readiness-node',
        env: {
          MONGODB_URL: `mongodb://127.0.0.1:${link.port}/voice?directConnection=true&serverSelectionTimeoutMS=1000`,
          VOICE_BOOTSTRAP_KEYS: `${testKey()}:1000`,
        },
      });
    });
    after(async () => {
      await node?.kill();
      link?.close();
      await mongo?.close();
    });

    it('is ready with the store up, 503 naming the store while it is down, ready again once it is back', async () => {
      const up = await readiness(node.url, true);
      expect(up.status).to.equal(200);
      expect(up.body).to.deep.include({ status: 'success', ready: true });
      expect(up.body.checks.store).to.equal('up');

      link.down();
      const down = await readiness(node.url, false);
      expect(down.status).to.equal(503);
      expect(down.body.status).to.equal('error');
      expect(down.body.checks.store).to.match(/^down: /);
      expect(down.body.message).to.match(/^not ready: store \(.+\) down$/);
      expect(await alive(node.url)).to.equal(true);

      await link.up();
      expect((await readiness(node.url, true)).status).to.equal(200);
    });
  });

  describe('with a configured provider down', () => {
    let whisper: WhisperServer;
    let link: Link;
    let server: TestServer;

    before(async () => {
      whisper = await startWhisperServer();
      link = await cuttableLink(Number(new URL(whisper.url).port));
      server = await startTestServer({ VOICE_STT: 'whisper', VOICE_WHISPER_URL: `http://127.0.0.1:${link.port}` });
    });
    after(async () => {
      await server?.close();
      link?.close();
      await whisper?.close();
    });

    it('is not ready while the transcription server is unreachable, and names it', async () => {
      const up = await readiness(server.url, true);
      expect(up.body.checks).to.include({ store: 'up', stt: 'up', llm: 'up' });

      link.down();
      const down = await readiness(server.url, false);
      expect(down.status).to.equal(503);
      expect(down.body.checks.store).to.equal('up');
      expect(down.body.checks.stt).to.match(/^down: .*ECONNREFUSED/);
      expect(down.body.message).to.match(/^not ready: stt \(/);
      expect(await alive(server.url)).to.equal(true);

      await link.up();
      expect((await readiness(server.url, true)).status).to.equal(200);
    });
  });
});
