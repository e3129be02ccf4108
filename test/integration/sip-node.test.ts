import { expect } from 'chai';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { startNode } from '../../src/node.js';
import { captureLogger } from '../helpers/server.js';
import { newIds, request, SipPeer } from '../fixtures/sipp/peer.js';

/** The node starts the SIP entry point itself when SIP is enabled, and stops it on close. */
describe('sip entry point in a node', function () {
  this.timeout(30_000);
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  function config(sipPort: number): Config {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-sip-node-'));
    dirs.push(dataDir);
    const base = loadConfig({
      VOICE_HOST: '127.0.0.1',
      VOICE_PORT: '0',
      VOICE_DATA_DIR: dataDir,
      VOICE_STT: 'none',
      VOICE_TTS: 'none',
      VOICE_DRAIN_SECONDS: '2',
      VOICE_SIP_HOST: '127.0.0.1',
      VOICE_SIP_RTP_PORTS: '0',
    });
    // VOICE_SIP_PORT=0 switches SIP off; a test asks for an ephemeral port directly.
    return { ...base, sipEnabled: true, sipPort };
  }

  it('listens on UDP and TCP at the configured host, answers OPTIONS, and closes with the node', async () => {
    const { log, lines } = captureLogger('info');
    const node = await startNode(config(0), log);
    const listening = lines.find((l) => l.msg === 'sip listening');
    expect(listening).to.include({ host: '127.0.0.1' });
    const port = listening!.port as number;
    expect(port).to.be.greaterThan(0);

    for (const make of [SipPeer.udp, SipPeer.tcp]) {
      const peer = await make({ host: '127.0.0.1', port });
      peer.send(request({ method: 'OPTIONS', uri: `sip:honeypot@127.0.0.1:${port}`, ids: newIds(), peer }));
      expect((await peer.finalResponse('OPTIONS')).status).to.equal(200);
      peer.close();
    }
    await node.close();
    // The port is free again.
    const probe = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.bind(port, '127.0.0.1', () => resolve());
    });
    probe.close();
  });

  it('refuses to start when the SIP port is taken', async () => {
    const squatter = dgram.createSocket('udp4');
    await new Promise<void>((r) => squatter.bind(0, '127.0.0.1', () => r()));
    try {
      const { log } = captureLogger('silent');
      let failed: unknown = null;
      await startNode(config(squatter.address().port), log).then(
        (n) => n.close(),
        (err: unknown) => (failed = err),
      );
      expect(failed).to.be.instanceOf(Error);
    } finally {
      squatter.close();
    }
  });

  it('stays off when SIP is disabled', async () => {
    const { log, lines } = captureLogger('info');
    const node = await startNode({ ...config(0), sipEnabled: false }, log);
    expect(lines.some((l) => l.msg === 'sip listening')).to.equal(false);
    await node.close();
  });
});
