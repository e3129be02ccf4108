import { expect } from 'chai';
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { signedUrlCandidates, verifiedVendor, type UpgradeRequest } from '../../../src/transport/vendor-signature.js';

const TOKEN = 'f3b2c1d0e9a8b7c6d5e4f3a2b1c0d9e8';
const NOW = 1_795_000_000_000;

/** Computed here from the vendor's documented scheme, independently of the module under test. */
function vendorA(url: string, token = TOKEN): string {
  return createHmac('sha1', token).update(url).digest('base64');
}

function ed25519() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = (publicKey.export({ format: 'der', type: 'spki' }) as Buffer).subarray(12).toString('base64');
  return { raw, signAt: (ts: string) => sign(null, Buffer.from(`${ts}|`), privateKey).toString('base64') };
}

const upgrade = (headers: Record<string, string>, extra: Partial<UpgradeRequest> = {}): UpgradeRequest => ({
  headers: { host: 'voice.example.com', ...headers },
  path: '/voice/filter/stream',
  query: '',
  ...extra,
});

describe('transport/vendor-signature: keyless upgrades', () => {
  it('verifies vendor A over the wss:// URL it requested, with any configured auth token', () => {
    const sig = vendorA('wss://voice.example.com/voice/filter/stream');
    const secrets = { vendorAAuthTokens: ['old-token', TOKEN] };
    expect(verifiedVendor(upgrade({ 'x-twilio-signature': sig }), secrets, NOW)).to.equal('vendor_a');
    // With the default port written out, as some proxies pass the Host on.
    const withPort = upgrade({ 'x-twilio-signature': sig, host: 'voice.example.com:443' });
    expect(verifiedVendor(withPort, secrets, NOW)).to.equal('vendor_a');
  });

  it('verifies vendor A against VOICE_PUBLIC_URL when one is set, not the Host header', () => {
    const sig = vendorA('wss://public.example.com/voice/honeypot/stream');
    const req = upgrade(
      { 'x-twilio-signature': sig, host: 'internal:8080' },
      { path: '/voice/honeypot/stream', publicUrl: 'https://public.example.com' },
    );
    expect(verifiedVendor(req, { vendorAAuthTokens: [TOKEN] }, NOW)).to.equal('vendor_a');
    expect(signedUrlCandidates(req)).to.include('wss://public.example.com/voice/honeypot/stream');
  });

  it('refuses vendor A signed over https://, with another token, another path, or none configured', () => {
    const secrets = { vendorAAuthTokens: [TOKEN] };
    for (const sig of [
      vendorA('https://voice.example.com/voice/filter/stream'),
      vendorA('wss://voice.example.com/voice/filter/stream', 'another-token'),
      vendorA('wss://voice.example.com/voice/honeypot/stream'),
      'dGVzdA==',
      '',
    ]) {
      expect(verifiedVendor(upgrade({ 'x-twilio-signature': sig }), secrets, NOW), sig).to.equal(null);
    }
    const good = vendorA('wss://voice.example.com/voice/filter/stream');
    expect(verifiedVendor(upgrade({ 'x-twilio-signature': good }), {}, NOW)).to.equal(null);
  });

  it('takes no made-up signature header for a vendor', () => {
    const secrets = { vendorAAuthTokens: [TOKEN] };
    const sig = vendorA('wss://voice.example.com/voice/filter/stream');
    for (const name of ['x-foo-signature', 'x-vendora-signature', 'x-voice-signature', 'x-signature']) {
      expect(verifiedVendor(upgrade({ [name]: sig }), secrets, NOW), name).to.equal(null);
    }
  });

  it('verifies vendor B ed25519 over "timestamp|" within five minutes, with its public key', () => {
    const k = ed25519();
    const secrets = { vendorBPublicKeys: [ed25519().raw, k.raw] };
    const ts = String(NOW / 1000 - 60);
    const headers = { 'telnyx-signature-ed25519': k.signAt(ts), 'telnyx-timestamp': ts };
    expect(verifiedVendor(upgrade(headers), secrets, NOW)).to.equal('vendor_b');
    // Replayed later, signed at another time, or with a key not configured: refused.
    expect(verifiedVendor(upgrade(headers), secrets, NOW + 300_000)).to.equal(null);
    const other = { ...headers, 'telnyx-timestamp': String(NOW / 1000) };
    expect(verifiedVendor(upgrade(other), secrets, NOW)).to.equal(null);
    expect(verifiedVendor(upgrade(headers), { vendorBPublicKeys: [ed25519().raw] }, NOW)).to.equal(null);
    expect(verifiedVendor(upgrade({ ...headers, 'telnyx-timestamp': '' }), secrets, NOW)).to.equal(null);
  });
});
