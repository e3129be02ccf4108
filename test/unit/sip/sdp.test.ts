import { expect } from 'chai';
import { buildAnswer, negotiate, parseSdp, SdpError, type Negotiated } from '../../../src/transport/sip/sdp.js';

function offer(m: string, extra: string[] = [], c = 'c=IN IP4 127.0.0.2'): string {
  return ['v=0', 'o=caller 1 1 IN IP4 127.0.0.2', 's=call', c, 't=0 0', m, ...extra, ''].join('\r\n');
}

describe('sdp offer/answer', () => {
  it('answers the offer’s preferred G.711 codec and its telephone-event payload type', () => {
    const o = parseSdp(
      offer('m=audio 7078 RTP/AVP 9 8 0 96', [
        'a=rtpmap:9 G722/8000',
        'a=rtpmap:96 telephone-event/8000',
        'a=fmtp:96 0-16',
      ]),
    );
    const n = negotiate(o) as Negotiated;
    expect(n).to.include({
      codec: 'PCMA',
      payloadType: 8,
      dtmfPayloadType: 96,
      remoteAddress: '127.0.0.2',
      remotePort: 7078,
    });
    const answer = buildAnswer(o, n, { address: '127.0.0.1', port: 40000, sessionId: '5', version: 1 });
    expect(answer.split('\r\n')).to.include.members([
      'v=0',
      'o=- 5 1 IN IP4 127.0.0.1',
      'c=IN IP4 127.0.0.1',
      't=0 0',
      'm=audio 40000 RTP/AVP 8 96',
      'a=rtpmap:8 PCMA/8000',
      'a=rtpmap:96 telephone-event/8000',
      'a=fmtp:96 0-15',
      'a=ptime:20',
      'a=sendrecv',
    ]);
    expect(answer).to.not.include('G722');
  });

  it('prefers PCMU when it comes first, with or without rtpmap', () => {
    expect((negotiate(parseSdp(offer('m=audio 5000 RTP/AVP 0 8'))) as Negotiated).codec).to.equal('PCMU');
    const dynamic = parseSdp(offer('m=audio 5000 RTP/AVP 111 8', ['a=rtpmap:111 PCMU/8000']));
    expect(negotiate(dynamic)).to.include({ codec: 'PCMU', payloadType: 111 });
    expect(negotiate(parseSdp(offer('m=audio 5000 RTP/AVP 8 0')))).to.include({ codec: 'PCMA', payloadType: 8 });
  });

  it('refuses offers without G.711, with SRTP, or without audio', () => {
    expect(negotiate(parseSdp(offer('m=audio 5000 RTP/AVP 9 18', ['a=rtpmap:9 G722/8000'])))).to.equal('no_g711');
    expect(negotiate(parseSdp(offer('m=audio 5000 RTP/SAVP 0 8')))).to.equal('srtp');
    expect(
      negotiate(parseSdp(offer('m=audio 5000 RTP/AVP 0', ['a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:abcd']))),
    ).to.equal('srtp');
    expect(negotiate(parseSdp(offer('m=video 5000 RTP/AVP 96')))).to.equal('no_audio');
    // PCMU at another clock rate is not G.711.
    expect(negotiate(parseSdp(offer('m=audio 5000 RTP/AVP 97', ['a=rtpmap:97 PCMU/16000'])))).to.equal('no_g711');
  });

  it('keeps every m= line in order, rejecting the others with port 0, and mirrors the direction', () => {
    const o = parseSdp(
      [
        'v=0',
        'o=- 1 1 IN IP4 10.0.0.1',
        's=-',
        't=0 0',
        'm=video 6000 RTP/AVP 96',
        'c=IN IP4 10.0.0.1',
        'm=audio 6002 RTP/AVP 0',
        'c=IN IP4 10.0.0.2',
        'a=sendonly',
        '',
      ].join('\r\n'),
    );
    const n = negotiate(o) as Negotiated;
    expect(n).to.include({ mediaIndex: 1, remoteAddress: '10.0.0.2', direction: 'sendonly' });
    const lines = buildAnswer(o, n, { address: '127.0.0.1', port: 4000, sessionId: '1', version: 2 }).split('\r\n');
    const ms = lines.filter((l) => l.startsWith('m='));
    expect(ms).to.deep.equal(['m=video 0 RTP/AVP 96', 'm=audio 4000 RTP/AVP 0']);
    expect(lines).to.include('a=recvonly');
    expect(n.dtmfPayloadType).to.equal(undefined);
  });

  it('rejects text that is not SDP', () => {
    expect(() => parseSdp('hello')).to.throw(SdpError);
    expect(() => parseSdp('v=0\r\nm=audio x RTP/AVP 0\r\n')).to.throw(SdpError);
  });
});
