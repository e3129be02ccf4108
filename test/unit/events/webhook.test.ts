import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import type { SessionEvent } from '../../../src/domain/events.js';
import { isBlockedAddress } from '../../../src/events/address-guard.js';
import { createWebhookSink, guardedLookup, signBody, webhookTarget } from '../../../src/events/webhook.js';
import { createLogger } from '../../../src/log.js';
import { startHttpsReceiver, type HttpsReceiver } from '../../integration/helpers/https-receiver.js';

const log = createLogger('silent');
const event = (type: SessionEvent['type'] = 'session.started'): SessionEvent =>
  ({
    type,
    session_id: '00000000-0000-4000-8000-000000000000',
    kind: 'filter',
    at: '2026-01-01T00:00:00.000Z',
  }) as SessionEvent;

describe('webhook address guard', () => {
  it('refuses loopback, private, link-local, CGNAT, metadata, unspecified and mapped forms of them', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fd00:ec2::254',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:a9fe:a9fe',
      'ff02::1',
      'not-an-address',
    ]) {
      expect(isBlockedAddress(a), a).to.equal(true);
    }
  });

  it('allows public addresses', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isBlockedAddress(a), a).to.equal(false);
    }
  });

  it('resolves names and refuses one that points at loopback (checked after DNS)', (done) => {
    guardedLookup(false)('localhost', {}, (err) => {
      expect(err?.message).to.match(/private or reserved/);
      done();
    });
  });

  it('resolves the same name when private targets are allowed', (done) => {
    guardedLookup(true)('localhost', {}, (err, address) => {
      expect(err).to.equal(null);
      expect(isBlockedAddress(address as string)).to.equal(true);
      done();
    });
  });
});

describe('webhook target and signature', () => {
  it('accepts only https URLs without credentials', () => {
    expect(webhookTarget('https://hooks.example.com/x')?.hostname).to.equal('hooks.example.com');
    expect(webhookTarget('http://hooks.example.com/x')).to.equal(null);
    expect(webhookTarget('ftp://hooks.example.com/x')).to.equal(null);
    expect(webhookTarget('https://user:pw@hooks.example.com/x')).to.equal(null);
    expect(webhookTarget('not a url')).to.equal(null);
    expect(webhookTarget(undefined)).to.equal(null);
  });

  it('signs the exact bytes with HMAC-SHA256 under the key', () => {
    const body = '{"type":"verdict"}';
    expect(signBody(body, 'k1')).to.equal(`sha256=${createHmac('sha256', 'k1').update(body).digest('hex')}`);
  });
});

describe('webhook sink against a local HTTPS receiver', function () {
  let receiver: HttpsReceiver;
  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(async () => {
    await receiver.close();
  });
  beforeEach(() => {
    receiver.posts.length = 0;
    receiver.respond = (_p, res) => {
      res.writeHead(200).end();
    };
  });

  const sink = (over: Partial<Parameters<typeof createWebhookSink>[0]> = {}) =>
    createWebhookSink({
      url: `${receiver.url}/hook`,
      key: 'secret-key-1',
      allowPrivate: true,
      log,
      tls: { ca: receiver.cert },
      ...over,
    })!;

  it('posts events with the spec headers and skips transcript.line', async () => {
    const s = sink();
    s.post(event('session.started'));
    s.post(event('transcript.line'));
    s.post(event('session.ended'));
    await s.idle();
    expect(receiver.posts.map((p) => p.body.type)).to.have.members(['session.started', 'session.ended']);
    for (const p of receiver.posts) {
      expect(p.headers['x-voice-event']).to.equal(p.body.type);
      expect(p.headers['x-voice-signature']).to.equal(signBody(p.raw, 'secret-key-1'));
    }
  });

  it('refuses a loopback receiver unless private targets are allowed', async () => {
    const blockedByLiteral = sink({ allowPrivate: false });
    blockedByLiteral.post(event());
    await blockedByLiteral.idle();
    const blockedByName = sink({ allowPrivate: false, url: `https://localhost:${receiver.port}/hook` });
    blockedByName.post(event());
    await blockedByName.idle();
    expect(receiver.posts).to.have.length(0);
  });

  it('does not follow redirects', async () => {
    receiver.respond = (p, res) => {
      if (p.path === '/hook') res.writeHead(307, { location: `${receiver.url}/elsewhere` }).end();
      else res.writeHead(200).end();
    };
    const s = sink();
    s.post(event());
    await s.idle();
    expect(receiver.posts.map((p) => p.path)).to.deep.equal(['/hook']);
  });

  it('abandons a post when the receiver does not answer in time, without retrying', async () => {
    receiver.respond = () => undefined;
    const s = sink({ timeoutMs: 150 });
    const t0 = Date.now();
    s.post(event());
    await s.idle();
    expect(Date.now() - t0).to.be.within(100, 2000);
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.posts).to.have.length(1);
  });

  it('keeps at most `concurrency` posts in flight and drops beyond the queue limit', async () => {
    let open = 0;
    let peak = 0;
    receiver.respond = (_p, res) => {
      open++;
      peak = Math.max(peak, open);
      setTimeout(() => {
        open--;
        res.writeHead(200).end();
      }, 30);
    };
    const s = sink({ concurrency: 2, queueLimit: 3 });
    for (let i = 0; i < 10; i++) s.post(event('verdict'));
    await s.idle();
    expect(peak).to.be.at.most(2);
    expect(receiver.posts).to.have.length(5); // 2 in flight + 3 queued; the rest dropped
  });

  it('ignores http URLs entirely (no sink)', () => {
    expect(createWebhookSink({ url: 'http://127.0.0.1:1/hook', key: 'k', allowPrivate: true, log })).to.equal(null);
  });
});
