import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { hashKey } from '../../src/server/auth.js';
import type { SipResponse } from '../../src/transport/sip/message.js';
import { startSipHarness, until, type SipHarness } from '../fixtures/sipp/harness.js';
import { answerMedia, newIds, offerSdp, PEER_HOST, request, RtpPeer, SipPeer } from '../fixtures/sipp/peer.js';

const SCAMMER = '+12025550199';
const CLEAN = '+12025550142';

describe('sip firewall domains', function () {
  this.timeout(60_000);
  let h: SipHarness;
  let keyId: string;
  const closers: Array<{ close(): unknown }> = [];

  before(async () => {
    h = await startSipHarness({ sip: { timers: { t1: 100, t2: 400, t4: 500 } } });
    keyId = (await h.server.services.store.keys.findByHash(hashKey(h.server.key)))!.id;
    await h.server.services.store.complaints.file({
      id: randomUUID(),
      number: SCAMMER,
      session_id: randomUUID(),
      key_id: keyId,
      subject: 'Tax Collection',
      comment: 'filed by a test',
      filed_at: new Date().toISOString(),
    });
  });
  after(async () => {
    for (const c of closers) await c.close();
    await h.close();
  });

  function put(id: string, body: unknown, key: string | null = h.server.key) {
    return fetch(`${h.server.url}/domains/${id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', ...(key ? { 'x-auth': key } : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  }

  async function call(
    domain: string,
    caller: string,
    rtpPort = 40020,
    pai?: string,
  ): Promise<{ res: SipResponse; peer: SipPeer; ids: ReturnType<typeof newIds> }> {
    const peer = await SipPeer.udp(h.target);
    closers.push(peer);
    const ids = newIds();
    peer.send(
      request({
        method: 'INVITE',
        uri: `sip:+18005550100@${domain}`,
        ids,
        peer,
        from: `<sip:${caller}@${PEER_HOST}>`,
        headers: pai ? { 'P-Asserted-Identity': pai } : {},
        body: offerSdp(rtpPort),
      }),
    );
    return { res: await peer.finalResponse('INVITE', 20_000), peer, ids };
  }

  describe('PUT /domains/{id}', () => {
    it('creates a domain with defaults and answers {status, domain}', async () => {
      const r = await put('calls.example.com', {});
      expect(r.status).to.equal(200);
      const body = (await r.json()) as { status: string; domain: Record<string, unknown> };
      expect(body.status).to.equal('success');
      expect(body.domain).to.include({ id: 'calls.example.com', spam_action: 'decline' });
      expect(body.domain).to.not.have.property('key_id');
      const stored = await h.server.services.store.domains.get('calls.example.com');
      expect(stored).to.include({ key_id: keyId, spam_action: 'decline' });
    });

    it('validates every field and the id, naming the field in a 400', async () => {
      const cases: Array<[string, unknown, RegExp]> = [
        ['ok.example', { spam_action: 'block' }, /^spam_action:/],
        ['ok.example', { forward_uri: 'http://x' }, /^forward_uri:/],
        ['ok.example', { persona: 'nobody-at-all' }, /^persona:/],
        ['ok.example', { webhook: 'http://plain.example/hook' }, /^webhook:/],
        ['ok.example', { spam_action: 7 }, /^spam_action:/],
        ['ok.example', { forward_uri: 42 }, /^forward_uri:/],
        ['ok.example', '[1,2]', /^body:/],
        ['under_score.example', {}, /^id:/],
      ];
      for (const [id, body, field] of cases) {
        const r = await put(id, body);
        expect(r.status, `${id} ${JSON.stringify(body)}`).to.equal(400);
        const json = (await r.json()) as { status: string; message: string };
        expect(json.status).to.equal('error');
        expect(json.message).to.match(field);
      }
    });

    it('updates only the fields sent, clears a field sent as null, ignores unknown fields, and folds the id case', async () => {
      const first = await put('Partial.Example', { spam_action: 'honeypot', forward_uri: 'sip:pbx.example.com' });
      expect(first.status).to.equal(200);
      expect(((await first.json()) as { domain: { id: string } }).domain.id).to.equal('partial.example');
      const update = await put('partial.example', { spam_action: 'decline', colour: 'red' });
      expect(update.status).to.equal(200);
      expect(((await update.json()) as { domain: Record<string, unknown> }).domain).to.include({
        spam_action: 'decline',
        forward_uri: 'sip:pbx.example.com',
      });
      const cleared = await put('PARTIAL.example', { forward_uri: null });
      const domain = ((await cleared.json()) as { domain: Record<string, unknown> }).domain;
      expect(domain).to.include({ spam_action: 'decline' });
      expect(domain).to.not.have.property('forward_uri');
    });

    it('needs X-Auth, and a domain belongs to the key that registered it', async () => {
      expect((await put('owned.example', {}, null)).status).to.equal(401);
      expect((await put('owned.example', {})).status).to.equal(200);
      const other = await put('owned.example', { spam_action: 'honeypot' }, h.server.otherKey);
      expect(other.status).to.equal(409);
      expect(((await other.json()) as { message: string }).message).to.match(/^id:/);
      const get = await fetch(`${h.server.url}/domains/owned.example`, { headers: { 'x-auth': h.server.otherKey } });
      expect(get.status).to.equal(404);
      const mine = await fetch(`${h.server.url}/domains/owned.example`, { headers: { 'x-auth': h.server.key } });
      expect(((await mine.json()) as { domain: { spam_action: string } }).domain.spam_action).to.equal('decline');
    });

    it('gives a webhook a signing secret that survives updates', async () => {
      const a = (await (await put('hooked.example', { webhook: 'https://hooks.example.com/sip' })).json()) as {
        domain: Record<string, string>;
      };
      expect(a.domain.webhook_secret).to.match(/^whsec_[0-9a-f]{48}$/);
      const b = (await (
        await put('hooked.example', { webhook: 'https://hooks.example.com/sip', spam_action: 'honeypot' })
      ).json()) as { domain: Record<string, string> };
      expect(b.domain.webhook_secret).to.equal(a.domain.webhook_secret);
      const kept = (await (await put('hooked.example', {})).json()) as { domain: Record<string, string> };
      expect(kept.domain.webhook_secret).to.equal(a.domain.webhook_secret);
      const c = (await (await put('hooked.example', { webhook: null })).json()) as { domain: Record<string, string> };
      expect(c.domain).to.not.have.property('webhook_secret');
    });
  });

  describe('INVITE to a registered domain', () => {
    before(async () => {
      expect((await put('decline.example', { forward_uri: 'sip:pbx@10.1.2.3:5060' })).status).to.equal(200);
      expect((await put('nowhere.example', {})).status).to.equal(200);
    });

    it('declines a filed caller with 603 under spam_action decline', async () => {
      const { res } = await call('decline.example', SCAMMER);
      expect(res.status).to.equal(603);
      expect(res.reason).to.equal('Decline');
    });

    it('reads the caller from P-Asserted-Identity before From', async () => {
      const { res } = await call('decline.example', CLEAN, 40020, `<tel:${SCAMMER}>`);
      expect(res.status).to.equal(603);
    });

    it('redirects any other caller with 302 to forward_uri, or 480 when the domain has none', async () => {
      const { res } = await call('decline.example', CLEAN);
      expect(res.status).to.equal(302);
      expect(res.headers.get('contact')).to.equal('<sip:pbx@10.1.2.3:5060>');
      const none = await call('nowhere.example', CLEAN);
      expect(none.res.status).to.equal(480);
    });

    it('answers 404 for a domain nobody registered', async () => {
      const { res } = await call('unknown.example', SCAMMER);
      expect(res.status).to.equal(404);
    });

    it('hands a filed caller to a persona under spam_action honeypot, as a session of the domain’s key', async () => {
      const put1 = await put('trap.example', {
        spam_action: 'honeypot',
        forward_uri: 'sip:pbx@10.1.2.3',
        webhook: `${h.receiver.url}/domain`,
      });
      const secret = ((await put1.json()) as { domain: { webhook_secret: string } }).domain.webhook_secret;
      const rtp = await RtpPeer.open();
      closers.push(rtp);
      h.receiver.posts.length = 0;
      const { res, peer, ids } = await call('trap.example', SCAMMER, rtp.port);
      expect(res.status).to.equal(200);
      const tag = /;tag=([^;\s]+)/.exec(res.headers.get('to')!)![1]!;
      peer.send(
        request({
          method: 'ACK',
          uri: `sip:+18005550100@trap.example`,
          ids: { ...ids, branch: 'z9hG4bKfwack' },
          peer,
          toTag: tag,
        }),
      );
      rtp.to(answerMedia(res).host, answerMedia(res).port);
      const talk = setInterval(() => rtp.audio(), 20);
      try {
        await until(() => rtp.packets.length > 10, 20_000, 'persona audio');
      } finally {
        clearInterval(talk);
      }
      peer.send(
        request({
          method: 'BYE',
          uri: `sip:+18005550100@trap.example`,
          ids: { ...ids, cseq: 2, branch: 'z9hG4bKfwbye' },
          peer,
          toTag: tag,
        }),
      );
      expect((await peer.finalResponse('BYE')).status).to.equal(200);
      await until(
        async () => {
          const rows = await h.server.services.store.sessions.listByKey(keyId, 200);
          return rows.some(
            (r) => r.call_id === ids.callId && r.state === 'ended' && r.protocol === 'sip' && r.from === SCAMMER,
          );
        },
        30_000,
        'domain session stored under the domain key',
      );
      // The domain's webhook receives the session, signed with the domain's secret.
      await until(() => h.receiver.posts.some((p) => p.body.type === 'session.ended'), 10_000, 'domain webhook');
      const { createHmac } = await import('node:crypto');
      for (const p of h.receiver.posts) {
        expect(p.path).to.equal('/domain');
        expect(p.headers['x-voice-signature']).to.equal(
          `sha256=${createHmac('sha256', secret).update(p.raw).digest('hex')}`,
        );
      }
      // A clean caller to the same domain is still forwarded.
      expect((await call('trap.example', CLEAN)).res.status).to.equal(302);
    });
  });
});
