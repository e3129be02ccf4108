import { expect } from 'chai';
import { checkOffer, type MediaLimits } from '../../../src/transport/sip/sdp-check.js';
import { parseSdp, SdpError, type Negotiated } from '../../../src/transport/sip/sdp.js';

const V4: MediaLimits = { families: 'IP4', holdAllowed: false };

function offer(m = 'm=audio 7078 RTP/AVP 0', c: string | null = 'c=IN IP4 203.0.113.7', extra: string[] = []): string {
  return ['v=0', 'o=caller 1 1 IN IP4 203.0.113.7', 's=-', ...(c ? [c] : []), 't=0 0', m, ...extra, ''].join('\r\n');
}

function check(text: string, limits = V4): Negotiated | string {
  return checkOffer(parseSdp(text), limits);
}

describe('sdp offer checks', () => {
  it('passes a plain G.711 offer on an even port to a unicast address', () => {
    expect(check(offer())).to.include({ remoteAddress: '203.0.113.7', remotePort: 7078, codec: 'PCMU' });
    expect(check(offer('m=audio 2 RTP/AVP 8'))).to.include({ remotePort: 2, codec: 'PCMA' });
    expect(check(offer('m=audio 65534 RTP/AVP 0'))).to.include({ remotePort: 65534 });
  });

  it('refuses a port past 65535 on any m= line, naming the field and the value', () => {
    for (const port of [65536, 70000, 99999999]) {
      expect(check(offer(`m=audio ${port} RTP/AVP 0`))).to.equal(`m= port ${port} is out of range (1-65535)`);
    }
    // Even on a stream that is not the one answered.
    expect(check(offer('m=audio 7078 RTP/AVP 0', undefined, ['m=video 70000 RTP/AVP 96']))).to.match(/^m= port 70000/);
  });

  it('refuses an odd RTP port (the next port up is RTCP)', () => {
    expect(check(offer('m=audio 7079 RTP/AVP 0'))).to.equal('m= port 7079 is odd (RTP takes an even port)');
    expect(check(offer('m=audio 65535 RTP/AVP 0'))).to.match(/^m= port 65535 is odd/);
    expect(check(offer('m=audio 1 RTP/AVP 0'))).to.match(/^m= port 1 is odd/);
  });

  it('leaves ports that are not numbers to the parser (400), and port 0 means no stream', () => {
    for (const port of ['-1', 'abc', '', '7078.5', '0x1f90']) {
      expect(() => parseSdp(offer(`m=audio ${port} RTP/AVP 0`)), port).to.throw(SdpError, /m= line/);
    }
    expect(check(offer('m=audio 0 RTP/AVP 0'))).to.equal('no audio stream offered');
  });

  it('needs a c= line and at least one G.711 codec', () => {
    expect(check(offer(undefined, null))).to.equal('c= line missing for the G.711 audio stream');
    expect(check(offer(undefined, null, ['c=IN IP4 203.0.113.9']))).to.include({ remoteAddress: '203.0.113.9' });
    expect(check(offer('m=audio 7078 RTP/AVP 9 18'))).to.equal('no G.711 (PCMU or PCMA) offered');
    expect(() => check(offer('m=audio 7078 RTP/AVP'))).to.throw(SdpError, /m= line/);
  });

  it('refuses broadcast, multicast and unspecified addresses', () => {
    const cases: Array<[string, RegExp]> = [
      ['c=IN IP4 255.255.255.255', /^c= address 255\.255\.255\.255 is broadcast$/],
      ['c=IN IP4 224.0.0.1', /^c= address 224\.0\.0\.1 is multicast$/],
      ['c=IN IP4 239.255.255.250/127', /is multicast$/],
      ['c=IN IP4 0.0.0.0', /^c= address 0\.0\.0\.0 is unspecified/],
      ['c=IN IP6 ff02::1', /^c= address ff02::1 is multicast$/],
      ['c=IN IP6 ::', /^c= address :: is unspecified$/],
      ['c=IN IP6 ::ffff:255.255.255.255', /is broadcast$/],
      ['c=IN IP6 ::ffff:0.0.0.0', /is unspecified/],
    ];
    const both: MediaLimits = { families: 'any', holdAllowed: false };
    for (const [c, reason] of cases) expect(check(offer(undefined, c), both), c).to.match(reason);
  });

  it('takes 0.0.0.0 as hold in a re-INVITE only (nothing is sent to it)', () => {
    expect(check(offer(undefined, 'c=IN IP4 0.0.0.0'), { families: 'IP4', holdAllowed: true })).to.include({
      remoteAddress: '0.0.0.0',
    });
    expect(check(offer(undefined, 'c=IN IP4 255.255.255.255'), { families: 'IP4', holdAllowed: true })).to.match(
      /broadcast/,
    );
  });

  it('needs an IP address of the family the c= line and the node speak', () => {
    expect(check(offer(undefined, 'c=IN IP4 pbx.example.com'))).to.equal(
      'c= address pbx.example.com is not an IP address (names are not resolved)',
    );
    expect(check(offer(undefined, 'c=IN IP4 999.1.1.1'))).to.match(/999\.1\.1\.1 is not an IP address/);
    expect(check(offer(undefined, 'c=IN IP4 \u0001\u00ff'))).to.equal(
      'c= address (unprintable) is not an IP address (names are not resolved)',
    );
    expect(check(offer(undefined, 'c=IN IP4 2001:db8::7'))).to.equal(
      'c= address 2001:db8::7 is not of address type IP4',
    );
    expect(check(offer(undefined, 'c=IN IP6 203.0.113.7'))).to.equal(
      'c= address 203.0.113.7 is not of address type IP6',
    );
    expect(check(offer(undefined, 'c=IN IP6 2001:db8::7'))).to.equal(
      'c= IPv6 address, but this node sends RTP over IPv4 only',
    );
    expect(check(offer(undefined, 'c=IN IP6 2001:db8::7'), { families: 'any', holdAllowed: false })).to.include({
      remoteAddress: '2001:db8::7',
      remoteAddressType: 'IP6',
    });
    expect(() => parseSdp(offer(undefined, 'c=IN IP5 1.2.3.4'))).to.throw(SdpError, /c= line/);
  });
});
