import { expect } from 'chai';
import type { SessionEvent } from '../../../src/domain/events.js';
import { RawSerializer } from '../../../src/transport/raw.js';
import type { Decoded } from '../../../src/transport/types.js';

function start(fields: Record<string, unknown>): Decoded {
  return new RawSerializer().decodeText(JSON.stringify({ type: 'start', ...fields }));
}

function reason(d: Decoded): string {
  if (d.type !== 'reject') throw new Error(`expected a reject, got ${JSON.stringify(d)}`);
  return d.reason;
}

describe('transport/raw: start message', () => {
  it('applies the spec defaults: pcm16 at 8000 Hz, no params', () => {
    expect(start({})).to.deep.equal({
      type: 'start',
      info: { audio: { encoding: 'pcm16', sampleRate: 8000 }, params: {} },
    });
  });

  it('carries call_id, from, to, rate, encoding and string params', () => {
    const d = start({
      call_id: 'c-1',
      from: '+15551234567',
      to: '+442071234567',
      sample_rate: 16000,
      encoding: 'mulaw',
      params: { webhook: 'https://h.example/x', report: 'true' },
    });
    expect(d).to.deep.equal({
      type: 'start',
      info: {
        callId: 'c-1',
        from: '+15551234567',
        to: '+442071234567',
        audio: { encoding: 'mulaw', sampleRate: 16000 },
        params: { webhook: 'https://h.example/x', report: 'true' },
      },
    });
  });

  it('accepts the sample_rate bounds 8000 and 48000', () => {
    for (const r of [8000, 48000]) {
      const d = start({ sample_rate: r });
      expect(d.type === 'start' && d.info.audio.sampleRate).to.equal(r);
    }
  });

  it('rejects sample rates outside 8000–48000 or not integers, naming the field', () => {
    for (const r of [7999, 48001, 16000.5, '16000', true]) {
      expect(reason(start({ sample_rate: r }))).to.match(/^sample_rate/);
    }
  });

  it('rejects encodings other than pcm16 and mulaw (alaw is vendor-only)', () => {
    for (const e of ['alaw', 'PCM16', 'opus', 3]) expect(reason(start({ encoding: e }))).to.match(/^encoding/);
  });

  it('keeps from/to that are not E.164 as given, without refusing the start (filing checks E.164)', () => {
    for (const given of [{ from: '5551234567' }, { from: 'anonymous' }, { to: '+0123456789' }]) {
      const d = start(given);
      expect(d.type, JSON.stringify(given)).to.equal('start');
      expect(d.type === 'start' && { ...d.info }).to.include(given);
    }
  });

  it('treats a from/to that is not a string as unknown, and refuses one longer than 256 characters', () => {
    const d = start({ from: 15551234567 });
    expect(d.type === 'start' && 'from' in d.info).to.equal(false);
    expect(reason(start({ from: 'x'.repeat(257) }))).to.match(/^from/);
  });

  it('treats an empty or null from as unknown', () => {
    const d = start({ from: '', to: null });
    expect(d.type).to.equal('start');
    expect(d.type === 'start' && 'from' in d.info).to.equal(false);
  });

  it('rejects params that are not an object of strings, naming the key', () => {
    expect(reason(start({ params: ['x'] }))).to.equal('params must be an object');
    expect(reason(start({ params: 'report=true' }))).to.equal('params must be an object');
    expect(reason(start({ params: { report: true } }))).to.equal('params.report must be a string');
  });

  it('rejects a non-string call_id', () => {
    expect(reason(start({ call_id: 42 }))).to.match(/^call_id/);
  });

  it('ignores a second start once started', () => {
    const s = new RawSerializer();
    expect(s.decodeText('{"type":"start"}').type).to.equal('start');
    expect(s.decodeText('{"type":"start","encoding":"mulaw"}')).to.deep.equal({ type: 'ignore' });
  });

  it('lets a rejected start be retried (the session decides to close, not the serializer)', () => {
    const s = new RawSerializer();
    expect(s.decodeText('{"type":"start","encoding":"x"}').type).to.equal('reject');
    expect(s.decodeText('{"type":"start"}').type).to.equal('start');
  });
});

describe('transport/raw: messages during a session', () => {
  const s = new RawSerializer();
  const text = (m: unknown) => s.decodeText(JSON.stringify(m));

  it('turns transcript into a text frame with the spec defaults', () => {
    expect(text({ type: 'transcript', text: 'hello there' })).to.deep.equal({
      type: 'frame',
      frame: { kind: 'text', track: 'inbound', text: 'hello there', final: true, endOfTurn: false },
    });
  });

  it('keeps track, final and end_of_turn when given', () => {
    expect(text({ type: 'transcript', text: 'hi', track: 'outbound', final: false, end_of_turn: true })).to.deep.equal({
      type: 'frame',
      frame: { kind: 'text', track: 'outbound', text: 'hi', final: false, endOfTurn: true },
    });
  });

  it('ignores transcripts with missing, non-string or empty text, or an unknown track', () => {
    for (const m of [
      { type: 'transcript' },
      { type: 'transcript', text: 12 },
      { type: 'transcript', text: '' },
      { type: 'transcript', text: '   ' },
      { type: 'transcript', text: 'x', track: 'both' },
      // `final` only as a JSON boolean: a string or number would be guessed at.
      { type: 'transcript', text: 'x', final: 'false' },
      { type: 'transcript', text: 'x', final: 'true' },
      { type: 'transcript', text: 'x', final: 0 },
    ]) {
      expect(text(m), JSON.stringify(m)).to.deep.equal({ type: 'ignore' });
    }
  });

  it('turns dtmf into a dtmf frame and ignores bad digits', () => {
    expect(text({ type: 'dtmf', digit: '7' })).to.deep.equal({ type: 'frame', frame: { kind: 'dtmf', digit: '7' } });
    expect(text({ type: 'dtmf', digit: '#' })).to.deep.equal({ type: 'frame', frame: { kind: 'dtmf', digit: '#' } });
    expect(text({ type: 'dtmf', digit: '12' })).to.deep.equal({ type: 'ignore' });
    expect(text({ type: 'dtmf' })).to.deep.equal({ type: 'ignore' });
  });

  it('turns stop into a stop frame', () => {
    expect(text({ type: 'stop' })).to.deep.equal({ type: 'frame', frame: { kind: 'stop', reason: 'stop' } });
  });

  it('ignores unknown messages, bad JSON and non-objects', () => {
    expect(text({ type: 'ping' })).to.deep.equal({ type: 'ignore' });
    expect(s.decodeText('not json')).to.deep.equal({ type: 'ignore' });
    expect(s.decodeText('[1,2]')).to.deep.equal({ type: 'ignore' });
    expect(s.decodeText('"start"')).to.deep.equal({ type: 'ignore' });
  });

  it('turns binary frames into inbound audio it owns, and ignores empty ones', () => {
    const buf = new Uint8Array([1, 2, 3, 4]);
    const d = s.decodeBinary(buf);
    expect(d.type).to.equal('frame');
    if (d.type !== 'frame' || d.frame.kind !== 'audio') throw new Error('not audio');
    expect(d.frame.track).to.equal('inbound');
    expect([...d.frame.data]).to.deep.equal([1, 2, 3, 4]);
    buf[0] = 9;
    expect(d.frame.data[0]).to.equal(1);
    expect(s.decodeBinary(new Uint8Array(0))).to.deep.equal({ type: 'ignore' });
  });
});

describe('transport/raw: output', () => {
  const s = new RawSerializer();

  it('sends events as JSON text', () => {
    const ev: SessionEvent = {
      type: 'session.started',
      session_id: 's',
      kind: 'filter',
      at: '2026-01-01T00:00:00.000Z',
    };
    const w = s.encodeEvent(ev);
    expect(w.binary).to.equal(false);
    expect(JSON.parse(w.data as string)).to.deep.equal(ev);
  });

  it('sends audio as binary, clear and mark as typed JSON, and nothing for hangup', () => {
    const audio = s.encodeOutbound({ kind: 'audio', data: new Uint8Array([5, 6]) });
    expect(audio?.binary).to.equal(true);
    expect(audio?.audio).to.equal(true);
    expect([...(audio?.data as Uint8Array)]).to.deep.equal([5, 6]);
    expect(s.encodeOutbound({ kind: 'clear' })).to.deep.equal({ data: '{"type":"clear"}', binary: false });
    expect(s.encodeOutbound({ kind: 'mark', name: 'greeting' })).to.deep.equal({
      data: '{"type":"mark","name":"greeting"}',
      binary: false,
    });
    expect(s.encodeOutbound({ kind: 'hangup' })).to.equal(null);
  });
});
