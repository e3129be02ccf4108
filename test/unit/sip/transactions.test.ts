import { expect } from 'chai';
import { parseDatagram, responseTo, type SipRequest, type SipResponse } from '../../../src/transport/sip/message.js';
import { TransactionLayer, transactionId, type ServerTransaction } from '../../../src/transport/sip/transactions.js';
import type { Flow } from '../../../src/transport/sip/transport.js';

const UDP: Flow = { protocol: 'UDP', address: '127.0.0.2', port: 5070 };
const TCP: Flow = { protocol: 'TCP', address: '127.0.0.2', port: 5070 };
const TIMERS = { t1: 20, t2: 80, t4: 50 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function req(method: string, branch = 'z9hG4bKabc', cseqMethod = method): SipRequest {
  return parseDatagram(
    Buffer.from(
      [
        `${method} sip:honeypot@127.0.0.1 SIP/2.0`,
        `Via: SIP/2.0/UDP 127.0.0.2:5070;branch=${branch}`,
        'From: <sip:a@127.0.0.2>;tag=1',
        'To: <sip:honeypot@127.0.0.1>',
        'Call-ID: c1',
        `CSeq: 1 ${cseqMethod}`,
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n'),
    ),
  ) as SipRequest;
}

function setup() {
  const sent: Array<SipRequest | SipResponse> = [];
  const seen = {
    requests: [] as ServerTransaction[],
    cancels: [] as Array<[ServerTransaction, ServerTransaction | undefined]>,
    acks: [] as SipRequest[],
  };
  const layer = new TransactionLayer({ send: (_f, m) => sent.push(m) }, TIMERS, {
    onRequest: (t) => seen.requests.push(t),
    onCancel: (c, i) => seen.cancels.push([c, i]),
    onAck: (a) => seen.acks.push(a),
  });
  const statuses = () => sent.filter((m): m is SipResponse => m.type === 'response').map((m) => m.status);
  return { layer, sent, seen, statuses };
}

describe('sip transactions', () => {
  it('hands a new request up once and answers its retransmissions with the last response', () => {
    const { layer, seen, statuses } = setup();
    layer.receive({ message: req('OPTIONS'), flow: UDP });
    layer.receive({ message: req('OPTIONS'), flow: UDP });
    expect(seen.requests).to.have.length(1);
    seen.requests[0]!.send(responseTo(seen.requests[0]!.request, 200));
    layer.receive({ message: req('OPTIONS'), flow: UDP });
    expect(statuses()).to.deep.equal([200, 200]);
    layer.close();
  });

  it('retransmits a non-2xx INVITE response over UDP (doubling, capped at T2) until the ACK', async () => {
    const { layer, seen, statuses } = setup();
    layer.receive({ message: req('INVITE'), flow: UDP });
    const t = seen.requests[0]!;
    t.send(responseTo(t.request, 486));
    await sleep(170); // sends at 0, 20, 60, 140
    const before = statuses().length;
    expect(before).to.be.within(3, 5);
    layer.receive({ message: req('ACK'), flow: UDP });
    expect(seen.acks).to.have.length(0);
    await sleep(200);
    expect(statuses().length).to.equal(before);
    layer.close();
  });

  it('does not retransmit over TCP', async () => {
    const { layer, seen, statuses } = setup();
    layer.receive({ message: req('INVITE'), flow: TCP });
    seen.requests[0]!.send(responseTo(seen.requests[0]!.request, 486));
    await sleep(100);
    expect(statuses()).to.deep.equal([486]);
    layer.close();
  });

  it('resends a 2xx until acknowledged and reports one that never is (64*T1)', async () => {
    const { layer, seen, statuses } = setup();
    layer.receive({ message: req('INVITE'), flow: UDP });
    const t = seen.requests[0]!;
    let noAck = 0;
    t.onNoAck(() => noAck++);
    t.send(responseTo(t.request, 200, { toTag: 'x' }));
    await sleep(64 * TIMERS.t1 + 100);
    expect(statuses().filter((s) => s === 200).length).to.be.greaterThan(3);
    expect(noAck).to.equal(1);
    layer.close();
  });

  it('passes the ACK of a 2xx (its own branch) up to the dialog, and a CANCEL with its INVITE', () => {
    const { layer, seen } = setup();
    layer.receive({ message: req('INVITE'), flow: UDP });
    layer.receive({ message: req('CANCEL', 'z9hG4bKabc'), flow: UDP });
    expect(seen.cancels).to.have.length(1);
    expect(seen.cancels[0]![1]).to.equal(seen.requests[0]);
    const invite = seen.requests[0]!;
    invite.send(responseTo(invite.request, 200, { toTag: 'x' }));
    layer.receive({ message: req('ACK', 'z9hG4bKother'), flow: UDP });
    expect(seen.acks).to.have.length(1);
    layer.close();
  });

  it('keys transactions by branch, sent-by and method (ACK and CANCEL apart from INVITE)', () => {
    expect(transactionId(req('ACK'))).to.equal(transactionId(req('INVITE')));
    expect(transactionId(req('CANCEL'))).to.not.equal(transactionId(req('INVITE')));
    expect(transactionId(req('CANCEL'), 'INVITE')).to.equal(transactionId(req('INVITE')));
  });

  it('retransmits our own request over UDP until its final response, and gives up after 64*T1', async () => {
    const { layer, sent } = setup();
    const bye = req('BYE', '');
    bye.headers.set('via', 'SIP/2.0/UDP 127.0.0.1:5080');
    const answered = layer.request(UDP, bye);
    await sleep(70);
    const copies = sent.filter((m) => m.type === 'request').length;
    expect(copies).to.be.within(2, 4);
    const branch = /branch=(\S+)/.exec(bye.headers.get('via')!)![1]!;
    const res = responseTo(bye, 200);
    expect(res.headers.get('via')).to.include(branch);
    layer.receive({ message: res, flow: UDP });
    expect((await answered)!.status).to.equal(200);

    const lost = req('BYE', '');
    lost.headers.set('via', 'SIP/2.0/UDP 127.0.0.1:5080');
    const t0 = Date.now();
    expect(await layer.request(UDP, lost)).to.equal(null);
    expect(Date.now() - t0).to.be.within(64 * TIMERS.t1 - 20, 64 * TIMERS.t1 + 200);
    layer.close();
  });
});
