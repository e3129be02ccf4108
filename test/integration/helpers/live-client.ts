import WebSocket from 'ws';

export interface LiveRun {
  ws: WebSocket;
  /** Parsed text frames from the server, in order. */
  events: Array<Record<string, unknown>>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a live socket; resolves once open, or rejects with the refused upgrade's HTTP status and body. */
export function openLive(url: string, headers: Record<string, string> = {}): Promise<LiveRun> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const events: Array<Record<string, unknown>> = [];
    const closed = new Promise<{ code: number; reason: string }>((res) =>
      ws.on('close', (code, reason) => res({ code, reason: reason.toString() })),
    );
    ws.on('message', (data, isBinary) => {
      if (!isBinary) events.push(JSON.parse(data.toString()) as Record<string, unknown>);
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        reject(Object.assign(new Error(`upgrade refused ${res.statusCode}`), { status: res.statusCode, body })),
      );
    });
    ws.on('error', (e) => reject(e));
    ws.on('open', () => resolve({ ws, events, closed }));
  });
}

export function send(run: LiveRun, msg: unknown): void {
  run.ws.send(JSON.stringify(msg));
}

export function transcript(run: LiveRun, text: string, extra: Record<string, unknown> = {}): void {
  send(run, { type: 'transcript', text, ...extra });
}

/** Waits until an event of this type arrived (or the socket closed). */
export async function waitFor(run: LiveRun, type: string, ms = 10_000): Promise<Record<string, unknown>> {
  const t0 = Date.now();
  for (;;) {
    const hit = run.events.find((e) => e.type === type);
    if (hit) return hit;
    if (Date.now() - t0 > ms)
      throw new Error(`no ${type} event within ${ms} ms; got ${run.events.map((e) => e.type).join(',')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An IRS imposter call (tax story, arrest threat, gift cards, secrecy, a callback number). */
export const SCAM_CALL = [
  'Hello, this is officer James Miller calling from the Internal Revenue Service.',
  'We have found a serious problem with your tax return and there is a warrant for your arrest.',
  'To avoid being arrested today you must pay the back taxes immediately.',
  'You need to go to the store and buy Google Play gift cards worth five hundred dollars.',
  'Do not tell anyone about this call, it is confidential. Call me back at 202-555-0147.',
  'Read me the numbers on the back of the cards right now or the police will come to your house.',
];

/** A prize-lure call that escalates: likely_scam on the first line, scam once the pressure starts. */
export const ESCALATING_SCAM_CALL = [
  'Congratulations, you have been selected for a free cruise to the Bahamas.',
  'This offer expires today so we need to book it right now.',
  'To hold your cabin there is a small processing fee of forty nine dollars.',
  'You can pay it with a Google Play gift card, just read me the numbers on the back.',
  'Do not tell your family, we want it to be a surprise. Call me back at 866-555-0142.',
];

export const CLEAN_CALL = [
  "Hi, it is Sarah from Doctor Patel's office.",
  'I am calling to confirm your appointment on Thursday at three in the afternoon.',
  'If you need to reschedule, just give the front desk a ring whenever it suits you.',
  'Thanks so much, and have a lovely day.',
];

/** Waits until `n` events of this type arrived. */
export async function waitForCount(run: LiveRun, type: string, n: number, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (run.events.filter((e) => e.type === type).length < n) {
    if (Date.now() - t0 > ms) throw new Error(`fewer than ${n} ${type} events within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
