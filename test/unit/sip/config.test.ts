import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config.js';

describe('sip config', () => {
  it('reads the RTP port range, defaulting to 10000-20000, 0 for OS-picked ports', () => {
    expect(loadConfig({}).sipRtpPorts).to.deep.equal({ min: 10000, max: 20000 });
    expect(loadConfig({ VOICE_SIP_RTP_PORTS: '30000-30100' }).sipRtpPorts).to.deep.equal({ min: 30000, max: 30100 });
    expect(loadConfig({ VOICE_SIP_RTP_PORTS: '0' }).sipRtpPorts).to.deep.equal({ min: 0, max: 0 });
    for (const bad of ['80-90', '30000', '30000-30000', '40000-30000', '1-70000', 'x']) {
      expect(() => loadConfig({ VOICE_SIP_RTP_PORTS: bad }), bad).to.throw(ConfigError, 'VOICE_SIP_RTP_PORTS');
    }
  });

  it('reads the media peers as addresses and CIDR blocks, none by default', () => {
    expect(loadConfig({}).sipMediaPeers).to.deep.equal([]);
    expect(
      loadConfig({ VOICE_SIP_MEDIA_PEERS: ' 203.0.113.9, 198.51.100.0/24,2001:db8::/32 ' }).sipMediaPeers,
    ).to.deep.equal(['203.0.113.9', '198.51.100.0/24', '2001:db8::/32']);
    for (const bad of ['pbx.example.com', '10.0.0.0/33', '2001:db8::/129', '10.0.0.1/8/1', '10.0.0/8', '1.2.3.4/x']) {
      expect(() => loadConfig({ VOICE_SIP_MEDIA_PEERS: bad }), bad).to.throw(ConfigError, /^VOICE_SIP_MEDIA_PEERS: /);
    }
  });

  it('reads the public address as one unicast IP address', () => {
    expect(loadConfig({}).sipPublicAddress).to.equal(undefined);
    expect(loadConfig({ VOICE_SIP_PUBLIC_ADDRESS: '203.0.113.7' }).sipPublicAddress).to.equal('203.0.113.7');
    expect(loadConfig({ VOICE_SIP_PUBLIC_ADDRESS: '2001:db8::7' }).sipPublicAddress).to.equal('2001:db8::7');
    for (const bad of ['sip.example.com', '0.0.0.0', '::', '224.0.0.1', '255.255.255.255', 'ff02::1', '1.2.3.4:5060']) {
      expect(() => loadConfig({ VOICE_SIP_PUBLIC_ADDRESS: bad }), bad).to.throw(
        ConfigError,
        /^VOICE_SIP_PUBLIC_ADDRESS: /,
      );
    }
  });
});
