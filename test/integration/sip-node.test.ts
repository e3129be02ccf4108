import { expect } from 'chai';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { startNode } from '../../src/node.js';
import { captureLogger } from '../helpers/server.js';
import { newIds, offerSdp, request, SipPeer } from '../fixtures/sipp/peer.js';

/** The node starts the SIP entry point itself when SIP is enabled, and stops it on close. */
describe('sip entry point in a node', function () {
  this.timeout(30_000);
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  function config(sipPort: number, env: Record<string, string> = {}): Config {
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
      ...env,
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

  it('writes VOICE_SIP_PUBLIC_ADDRESS in Contact and SDP (behind NAT or in a container), not the bind address', async () => {
    const { log, lines } = captureLogger('info');
    const key = 'nat_test_key_0123456789';
    const node = await startNode(
      config(0, { VOICE_SIP_PUBLIC_ADDRESS: '203.0.113.7', VOICE_BOOTSTRAP_KEYS: `${key}:1000` }),
      log,
    );
    try {
      const port = lines.find((l) => l.msg === 'sip listening')!.port as number;
      expect(lines.find((l) => l.msg === 'sip listening')).to.include({ host: '127.0.0.1', advertised: '203.0.113.7' });
      const peer = await SipPeer.udp({ host: '127.0.0.1', port });
      const ids = newIds();
      const uri = `sip:honeypot@127.0.0.1:${port}`;
      peer.send(
        request({ method: 'INVITE', uri, ids, peer, headers: { 'X-Service-Key': key }, body: offerSdp(40000) }),
      );
      const ok = await peer.response(200, 'INVITE', 20_000);
      expect(ok.headers.get('contact')).to.equal(`<sip:honeypot@203.0.113.7:${port}>`);
      const sdp = ok.body.toString();
      expect(sdp).to.match(/^o=- \d+ 1 IN IP4 203\.0\.113\.7\r$/m);
      expect(sdp).to.match(/^c=IN IP4 203\.0\.113\.7\r$/m);
      expect(sdp).to.not.include('127.0.0.1');
      const tag = /;tag=([^;\s]+)/.exec(ok.headers.get('to')!)![1]!;
      peer.send(request({ method: 'ACK', uri, ids: { ...ids, branch: `${ids.branch}ack` }, peer, toTag: tag }));
      peer.send(
        request({ method: 'BYE', uri, ids: { ...ids, cseq: 2, branch: `${ids.branch}bye` }, peer, toTag: tag }),
      );
      expect((await peer.finalResponse('BYE')).status).to.equal(200);
      peer.close();
    } finally {
      await node.close();
    }
  });

  it('stays off when SIP is disabled', async () => {
    const { log, lines } = captureLogger('info');
    const node = await startNode({ ...config(0), sipEnabled: false }, log);
    expect(lines.some((l) => l.msg === 'sip listening')).to.equal(false);
    await node.close();
  });
});
