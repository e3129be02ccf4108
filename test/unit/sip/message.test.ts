import { expect } from 'chai';
import {
  headerParam,
  parseCSeq,
  parseDatagram,
  responseTo,
  serialize,
  SipParseError,
  StreamFramer,
  type SipRequest,
} from '../../../src/transport/sip/message.js';

const INVITE = [
  'INVITE sip:honeypot@127.0.0.1:5080 SIP/2.0',
  'Via: SIP/2.0/UDP 127.0.0.2:5070;branch=z9hG4bK-1;rport',
  'v: SIP/2.0/UDP proxy.example.com;branch=z9hG4bK-0, SIP/2.0/UDP edge.example.com;branch=z9hG4bK-e',
  'f: "Caller, Esq." <sip:+12025550123@127.0.0.2>;tag=abc',
  't: <sip:honeypot@127.0.0.1>',
  'i: call-1@127.0.0.2',
  'CSeq: 1 INVITE',
  'Subject: a folded',
  '  header',
  'X-Service-Key: k',
  'c: application/sdp',
  'l: 4',
  '',
  'v=0\r\nEXTRA',
].join('\r\n');

describe('sip message codec', () => {
  it('parses compact names, folded lines, Via lists and a body bounded by Content-Length', () => {
    const m = parseDatagram(Buffer.from(INVITE)) as SipRequest;
    expect(m.type).to.equal('request');
    expect(m.method).to.equal('INVITE');
    expect(m.uri).to.equal('sip:honeypot@127.0.0.1:5080');
    expect(m.headers.all('via')).to.have.length(3);
    expect(m.headers.get('from')).to.equal('"Caller, Esq." <sip:+12025550123@127.0.0.2>;tag=abc');
    expect(m.headers.get('call-id')).to.equal('call-1@127.0.0.2');
    expect(m.headers.get('subject')).to.equal('a folded header');
    expect(m.headers.get('X-SERVICE-KEY')).to.equal('k');
    expect(m.body.toString()).to.equal('v=0\r');
  });

  it('builds a response copying Via, From, Call-ID and CSeq, tagging To once', () => {
    const req = parseDatagram(Buffer.from(INVITE)) as SipRequest;
    const res = responseTo(req, 486, { toTag: 'xyz' });
    const wire = serialize(res).toString();
    expect(wire.startsWith('SIP/2.0 486 Busy Here\r\n')).to.equal(true);
    expect(wire.match(/^Via: /gm)).to.have.length(3);
    expect(wire).to.include('To: <sip:honeypot@127.0.0.1>;tag=xyz\r\n');
    expect(wire).to.include('Call-ID: call-1@127.0.0.2\r\n');
    expect(wire).to.include('CSeq: 1 INVITE\r\n');
    expect(wire).to.include('Content-Length: 0\r\n\r\n');
    // 100 Trying carries no tag (§8.2.6.2).
    expect(serialize(responseTo(req, 100, { toTag: 'xyz' })).toString()).to.not.include('tag=xyz');
    const back = parseDatagram(serialize(res));
    expect(back.type === 'response' && back.status).to.equal(486);
  });

  it('frames several messages and partial chunks on a stream, and needs Content-Length there', () => {
    const one = serialize(
      responseTo(parseDatagram(Buffer.from(INVITE)) as SipRequest, 200, { body: Buffer.from('hello') }),
    );
    const framer = new StreamFramer();
    const both = Buffer.concat([Buffer.from('\r\n\r\n'), one, one]);
    expect(framer.push(both.subarray(0, 30))).to.have.length(0);
    const got = framer.push(both.subarray(30));
    expect(got).to.have.length(2);
    expect(got[1]!.body.toString()).to.equal('hello');
    expect(() => new StreamFramer().push(Buffer.from('OPTIONS sip:x SIP/2.0\r\nVia: a\r\n\r\n'))).to.throw(
      SipParseError,
    );
  });

  it('rejects what is not SIP', () => {
    expect(() => parseDatagram(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))).to.throw(SipParseError);
    expect(() => parseDatagram(Buffer.from('INVITE sip:x SIP/2.0\r\nno colon here\r\n\r\n'))).to.throw(SipParseError);
    expect(() => parseDatagram(Buffer.from('INVITE sip:x SIP/2.0\r\nContent-Length: 99\r\n\r\nshort'))).to.throw(
      SipParseError,
    );
  });

  it('reads CSeq and header parameters', () => {
    expect(parseCSeq('  42 invite ')).to.deep.equal({ seq: 42, method: 'INVITE' });
    expect(parseCSeq('x INVITE')).to.equal(null);
    expect(headerParam('"a;tag=no" <sip:a@b;tag=uri>;tag=yes', 'tag')).to.equal('yes');
    expect(headerParam('SIP/2.0/UDP h;branch=z9hG4bK1;rport', 'rport')).to.equal('');
    expect(headerParam('<sip:a@b>', 'tag')).to.equal(undefined);
  });
});
