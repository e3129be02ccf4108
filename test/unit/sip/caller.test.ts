import { expect } from 'chai';
import { callerNumber, numberOfUri, toE164 } from '../../../src/transport/sip/caller.js';
import { parseDatagram, type SipRequest } from '../../../src/transport/sip/message.js';
import { domainCandidates, firewallAction } from '../../../src/server/sip/firewall.js';

function invite(headers: string[]): SipRequest {
  return parseDatagram(
    Buffer.from(
      [
        'INVITE sip:honeypot@127.0.0.1 SIP/2.0',
        'Via: SIP/2.0/UDP h;branch=z9hG4bK1',
        'Call-ID: c',
        'CSeq: 1 INVITE',
        'To: <sip:honeypot@127.0.0.1>',
        ...headers,
        '',
        '',
      ].join('\r\n'),
    ),
  ) as SipRequest;
}

describe('sip caller number', () => {
  it('normalises user parts and tel: URIs to E.164', () => {
    expect(toE164('+1-202-555-0123')).to.equal('+12025550123');
    expect(toE164('12025550123')).to.equal('+12025550123');
    expect(toE164('00442079460958')).to.equal('+442079460958');
    expect(toE164('%2B12025550123')).to.equal('+12025550123');
    expect(toE164('anonymous')).to.equal(undefined);
    expect(toE164('2025550123')).to.equal(undefined);
    expect(numberOfUri('tel:+12025550123;phone-context=x')).to.equal('+12025550123');
    expect(numberOfUri('sip:+12025550123;isup-oli=0@carrier.example;user=phone')).to.equal('+12025550123');
  });

  it('reads P-Asserted-Identity first (any of its URIs), then From', () => {
    expect(
      callerNumber(
        invite(['From: "Spoof" <sip:+15555550100@x>;tag=1', 'P-Asserted-Identity: "Real" <sip:+12025550123@carrier>']),
      ),
    ).to.equal('+12025550123');
    expect(
      callerNumber(
        invite([
          'From: <sip:+12025550123@x>;tag=1',
          'P-Asserted-Identity: <sip:anonymous@anonymous.invalid>, <tel:+442079460958>',
        ]),
      ),
    ).to.equal('+442079460958');
    expect(callerNumber(invite(['From: "Bob" <sip:+12025550123@x>;tag=1']))).to.equal('+12025550123');
    expect(callerNumber(invite(['From: "Anonymous" <sip:anonymous@anonymous.invalid>;tag=1']))).to.equal(undefined);
  });
});

describe('sip firewall decision', () => {
  it('declines or lures filed callers by spam_action, forwards the rest', () => {
    expect(firewallAction({ spam_action: 'decline', forward_uri: 'sip:a@b' }, true)).to.deep.equal({
      action: 'decline',
    });
    expect(firewallAction({ spam_action: 'honeypot' }, true)).to.deep.equal({ action: 'honeypot' });
    expect(firewallAction({ spam_action: 'honeypot', forward_uri: 'sip:a@b' }, false)).to.deep.equal({
      action: 'forward',
      uri: 'sip:a@b',
    });
    expect(firewallAction({ spam_action: 'decline' }, false)).to.deep.equal({ action: 'unavailable' });
  });

  it('names the domain by Request-URI host, then To host, lower-cased', () => {
    expect(domainCandidates('Calls.Example.COM.', '10.0.0.1')).to.deep.equal(['calls.example.com', '10.0.0.1']);
    expect(domainCandidates('x.example', 'x.example')).to.deep.equal(['x.example']);
    expect(domainCandidates(undefined, '[::1]')).to.deep.equal([]);
  });
});
