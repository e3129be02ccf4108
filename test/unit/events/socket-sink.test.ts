import { expect } from 'chai';
import type { SessionEvent } from '../../../src/domain/events.js';
import { SocketSink, type SocketLike } from '../../../src/events/socket-sink.js';
import { RawSerializer } from '../../../src/transport/raw.js';
import { VendorASerializer } from '../../../src/transport/vendor-a.js';

class FakeSocket implements SocketLike {
  sent: Array<string | Uint8Array> = [];
  buffered = 0;
  ended: { code?: number; reason?: string } | null = null;
  send(message: string | Uint8Array): number {
    this.sent.push(message);
    return 1;
  }
  getBufferedAmount(): number {
    return this.buffered;
  }
  end(code?: number, reason?: string): void {
    this.ended = { code, reason };
  }
}

const ev = (type: SessionEvent['type']): SessionEvent =>
  ({ type, session_id: 's', kind: 'filter', at: '2026-01-01T00:00:00.000Z' }) as SessionEvent;

describe('socket sink', () => {
  it('writes events as JSON text through the serializer and closes after them', () => {
    const ws = new FakeSocket();
    const sink = new SocketSink(ws, new RawSerializer());
    sink.event(ev('session.started'));
    sink.close(1000, 'session ended');
    expect(ws.sent.map((m) => JSON.parse(m as string).type)).to.deep.equal(['session.started']);
    expect(ws.ended).to.deep.equal({ code: 1000, reason: 'session ended' });
  });

  it('queues under backpressure, keeps order, and closes only once drained', () => {
    const ws = new FakeSocket();
    const sink = new SocketSink(ws, new RawSerializer(), 100);
    ws.buffered = 500;
    sink.event(ev('session.started'));
    sink.event(ev('verdict'));
    sink.close();
    expect(ws.sent).to.have.length(0);
    expect(ws.ended).to.equal(null);
    ws.buffered = 0;
    sink.drain();
    expect(ws.sent.map((m) => JSON.parse(m as string).type)).to.deep.equal(['session.started', 'verdict']);
    expect(ws.ended).to.deep.equal({ code: 1000, reason: 'session ended' });
  });

  it('sheds queued audio before events when the queue is full', () => {
    const ws = new FakeSocket();
    const sink = new SocketSink(ws, new RawSerializer(), 100, 3);
    ws.buffered = 500;
    sink.outbound({ kind: 'audio', data: new Uint8Array(1) });
    sink.event(ev('session.started'));
    sink.outbound({ kind: 'audio', data: new Uint8Array(2) });
    sink.event(ev('verdict'));
    ws.buffered = 0;
    sink.drain();
    const kinds = ws.sent.map((m) => (typeof m === 'string' ? JSON.parse(m).type : `audio${m.byteLength}`));
    expect(kinds).to.deep.equal(['session.started', 'audio2', 'verdict']);
  });

  it("sheds a vendor's JSON media messages before events too (audio is not always binary)", () => {
    const ws = new FakeSocket();
    const serializer = new VendorASerializer('honeypot');
    const start = {
      event: 'start',
      streamSid: 'MZ1',
      start: { streamSid: 'MZ1', callSid: 'CA1', customParameters: {} },
    };
    expect(serializer.decodeText(JSON.stringify(start)).type).to.equal('start');
    const sink = new SocketSink(ws, serializer, 100, 3);
    ws.buffered = 500;
    sink.outbound({ kind: 'mark', name: 'm1' });
    sink.outbound({ kind: 'audio', data: new Uint8Array(1) });
    sink.outbound({ kind: 'audio', data: new Uint8Array(2) });
    sink.outbound({ kind: 'clear' });
    ws.buffered = 0;
    sink.drain();
    const events = ws.sent.map((m) => JSON.parse(m as string).event);
    expect(events).to.deep.equal(['mark', 'media', 'clear']);
  });

  it('drops everything once the socket went away', () => {
    const ws = new FakeSocket();
    const sink = new SocketSink(ws, new RawSerializer());
    sink.detach();
    sink.event(ev('session.ended'));
    sink.close();
    expect(ws.sent).to.have.length(0);
    expect(ws.ended).to.equal(null);
  });
});
