import { expect } from 'chai';
import { errorMessage } from '../../../src/client/errors.js';
import { liveRequest } from '../../../src/client/live.js';

describe('client kit: requests', () => {
  it('builds the socket URL (ws/wss from http/https) with the key and options, and the start message', () => {
    const { url, start } = liveRequest('https://voice.example.com/', 'filter', 'k_123', {
      call_id: 'c1',
      from: '+12025550123',
      sample_rate: 16000,
      encoding: 'mulaw',
      report: true,
      webhook: 'https://hooks.example.com/v?a=1',
      tracks: 'both',
      params: { language: 'en-US' },
    });
    const u = new URL(url);
    expect(u.protocol).to.equal('wss:');
    expect(u.pathname).to.equal('/voice/filter/stream');
    expect(Object.fromEntries(u.searchParams)).to.deep.equal({
      key: 'k_123',
      report: 'true',
      webhook: 'https://hooks.example.com/v?a=1',
      tracks: 'both',
    });
    expect(start).to.deep.equal({
      type: 'start',
      call_id: 'c1',
      from: '+12025550123',
      sample_rate: 16000,
      encoding: 'mulaw',
      params: { language: 'en-US' },
    });
    const plain = liveRequest('http://127.0.0.1:8080', 'honeypot', undefined, { persona: 'grandma' });
    expect(plain.url).to.equal('ws://127.0.0.1:8080/voice/honeypot/stream?persona=grandma');
    expect(plain.start).to.deep.equal({ type: 'start' });
  });

  it("reads the service's error message, or the raw text when the body is not JSON", () => {
    expect(errorMessage('{"status":"error","message":"key: missing"}')).to.equal('key: missing');
    expect(errorMessage('Bad Gateway')).to.equal('Bad Gateway');
    expect(errorMessage('')).to.equal('no message');
  });
});
