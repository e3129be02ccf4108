/*
 * The load client of the live benchmarks, in its own process: N filter sessions over real sockets,
 * each streaming 20 ms G.711 μ-law frames in real time after its `session.started`. It knows the replay
 * recogniser's script (a final line every REPLAY_EVERY_MS of audio), so it times, on its own clock, the
 * frame that completes an utterance against that utterance's `transcript.line` and the rules' `verdict`.
 */
import type { Socket } from 'node:net';
import { createHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import WebSocket from 'ws';
import { REPLAY_EVERY_MS } from '../../src/providers/stt/replay.js';
import { LOOP_RESOLUTION_MS, summariseLoopDelay, summariseNs } from '../lib/stats.js';
import type { ClientReply, ClientRequest } from './protocol.js';

const FRAME_MS = 20;
const FRAME = Buffer.alloc(160, 0xff); // 20 ms of μ-law silence at 8 kHz
const FRAMES_PER_LINE = REPLAY_EVERY_MS / FRAME_MS;
/** Zero masking keys: frames stay valid (RFC 6455 only asks for a key) and the client spends its CPU on sending. */
const noMask = (): void => undefined;
/**
 * The whole wire form of one audio frame: FIN + binary, masked, 16-bit length 160, key 0 (so the payload
 * is sent as is). Every frame is the same bytes, so each is one write of this buffer on the session's
 * socket rather than a pass through ws's sender (a header, a masked copy and a corked write per frame):
 * the client must be cheap, or on a shared machine it, not the node, is what runs out of CPU.
 */
const WIRE_FRAME = Buffer.concat([Buffer.from([0x82, 0x80 | 126, 0, FRAME.length, 0, 0, 0, 0]), FRAME]);

interface Session {
  /** The server it talks to (the capacity bench moves its load between two). */
  url: string;
  ws: WebSocket;
  /** The connection under `ws`, written directly for audio frames (nothing else is sent while they flow). */
  socket: Socket | null;
  streaming: boolean;
  /** Connected and started, but sending no audio. */
  paused: boolean;
  nextAt: number;
  frames: number;
  /** Send times of the frames that completed an utterance whose line has not arrived yet. */
  pending: number[];
  lastLineSentAt: number;
  expiresAt: number;
  stopping: boolean;
}

const live = new Set<Session>();
const lineNs = createHistogram();
const verdictNs = createHistogram();
const latenessNs = createHistogram();
const eld = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
eld.enable();
let cpuMark = process.cpuUsage();
let opened = 0;
let ended = 0;
let failed = 0;
let unexpected = 0;
let framesSent = 0;
/** While set, calls on `url` that end are replaced at once, each new one living `minMs`..`maxMs`. */
let churn: { url: string; key: string; live: number; minMs: number; maxMs: number } | null = null;
const reply = (r: ClientReply): void => void process.send!(r);
const record = (h: ReturnType<typeof createHistogram>, msElapsed: number): void =>
  h.record(Math.max(1, Math.round(msElapsed * 1e6)));

function openSession(url: string, key: string, lifeMs = Infinity, paused = false): Promise<boolean> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url}/voice/filter/stream?key=${encodeURIComponent(key)}`, {
      perMessageDeflate: false,
      generateMask: noMask,
    });
    const s: Session = {
      url,
      ws,
      socket: null,
      streaming: false,
      paused,
      nextAt: 0,
      frames: 0,
      pending: [],
      lastLineSentAt: 0,
      expiresAt: Infinity,
      stopping: false,
    };
    let settled = false;
    const settle = (ok: boolean): void => {
      if (settled) return;
      settled = true;
      resolve(ok);
    };
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'start', encoding: 'mulaw', sample_rate: 8000, from: '+12025550147' })),
    );
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) return;
      const now = performance.now();
      const e = JSON.parse(data.toString('utf8')) as { type: string; verdict?: { source?: string } };
      if (e.type === 'session.started') {
        s.socket = (ws as unknown as { _socket: Socket })._socket;
        s.streaming = true;
        s.nextAt = now;
        s.expiresAt = now + lifeMs;
        live.add(s);
        opened++;
        settle(true);
      } else if (e.type === 'transcript.line') {
        const sentAt = s.pending.shift();
        if (sentAt !== undefined) {
          record(lineNs, now - sentAt);
          s.lastLineSentAt = sentAt;
        }
      } else if (e.type === 'verdict' && e.verdict?.source === 'heuristic' && s.lastLineSentAt > 0) {
        record(verdictNs, now - s.lastLineSentAt);
        s.lastLineSentAt = 0;
      }
    });
    ws.on('error', () => settle(false));
    ws.on('close', () => {
      if (!settled) failed++;
      settle(false);
      if (live.delete(s)) {
        if (s.stopping) ended++;
        else unexpected++;
        // At once, not at the next tick: a sample between the two would count one call short.
        topUp();
      }
    });
  });
}

/** One pass over the live sessions: every frame that is due goes out (late ones at once, in order). */
function tick(): void {
  const now = performance.now();
  for (const s of live) {
    if (!s.streaming || s.paused) continue;
    if (now >= s.expiresAt && !s.stopping) {
      stop(s);
      continue;
    }
    while (s.nextAt <= now) {
      record(latenessNs, now - s.nextAt);
      s.socket!.write(WIRE_FRAME);
      framesSent++;
      s.frames++;
      if (s.frames % FRAMES_PER_LINE === 0) s.pending.push(performance.now());
      s.nextAt += FRAME_MS;
    }
  }
  if (churn) topUp();
  setTimeout(tick, 2);
}

function stop(s: Session): void {
  s.stopping = true;
  s.streaming = false;
  s.ws.send(JSON.stringify({ type: 'stop' }));
}

/** Stops a session and waits for its socket to close (at most 15 s). */
function close(s: Session): Promise<void> {
  return new Promise<void>((resolve) => {
    s.ws.once('close', () => resolve());
    stop(s);
    setTimeout(() => (s.ws.terminate(), resolve()), 15_000).unref();
  });
}

let opening = 0;
function topUp(): void {
  if (!churn) return;
  const c = churn;
  while (live.size + opening < c.live && opening < 20) {
    opening++;
    const life = c.minMs + Math.random() * (c.maxMs - c.minMs);
    void openSession(c.url, c.key, life).then(() => opening--);
  }
}

const on = (url: string): Session[] => [...live].filter((s) => s.url === url);

/**
 * What is left of a call already in progress, for calls living `minMs`..`maxMs` (uniform): a remaining life
 * r has density ∝ P(life > r). Calls opened with it end at the steady rate from the first second, not in a
 * clump one lifetime after they all opened.
 */
function remainingLife(minMs: number, maxMs: number): number {
  for (;;) {
    const r = Math.random() * maxMs;
    if (Math.random() * (maxMs - minMs) <= maxMs - r) return r;
  }
}

async function openUpTo(
  url: string,
  key: string,
  total: number,
  rate: number,
  paused = false,
  life?: { minMs: number; maxMs: number },
): Promise<ClientReply> {
  const t0 = performance.now();
  const before = failed;
  let n = 0;
  const target = total - on(url).length;
  const inflight = new Set<Promise<boolean>>();
  while (n < target) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate) + 1;
    while (n < target && n < due && inflight.size < 50) {
      const lifeMs = life ? remainingLife(life.minMs, life.maxMs) : Infinity;
      const p: Promise<boolean> = openSession(url, key, lifeMs, paused).finally(() => inflight.delete(p));
      inflight.add(p);
      n++;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await Promise.all(inflight);
  return { cmd: 'open', live: on(url).length, failed: failed - before, seconds: (performance.now() - t0) / 1000 };
}

process.on('message', (msg: ClientRequest) => {
  void (async () => {
    switch (msg.cmd) {
      case 'open':
        return reply(await openUpTo(msg.url, msg.key, msg.total, msg.rate, msg.paused, msg.life));
      case 'stream': {
        const sessions = on(msg.url);
        const now = performance.now();
        for (const s of sessions) {
          if (msg.on && s.paused) s.nextAt = now;
          s.paused = !msg.on;
        }
        return reply({ cmd: 'stream', sessions: sessions.length });
      }
      case 'trim': {
        // `live` keeps opening order: the youngest are last.
        const extra = on(msg.url).slice(msg.total);
        await Promise.all(extra.map(close));
        return reply({ cmd: 'trim', live: on(msg.url).length });
      }
      case 'churn':
        churn = msg;
        return reply({ cmd: 'churn' });
      case 'freeze':
        churn = null;
        for (const s of live) s.expiresAt = Infinity;
        return reply({ cmd: 'freeze' });
      case 'mark':
        lineNs.reset();
        verdictNs.reset();
        latenessNs.reset();
        eld.reset();
        cpuMark = process.cpuUsage();
        return reply({ cmd: 'mark' });
      case 'sample': {
        const cpu = process.cpuUsage(cpuMark);
        return reply({
          cmd: 'sample',
          live: live.size,
          opening,
          opened,
          ended,
          failed,
          unexpectedCloses: unexpected,
          framesSent,
          lineLatency: summariseNs(lineNs),
          verdictLatency: summariseNs(verdictNs),
          sendLateness: summariseNs(latenessNs),
          clientEventLoopDelay: summariseLoopDelay(eld),
          clientCpuSeconds: (cpu.user + cpu.system) / 1e6,
        });
      }
      case 'closeAll': {
        churn = null;
        const closing = [...live].map(close);
        await Promise.all(closing);
        return reply({ cmd: 'closeAll', closed: closing.length });
      }
    }
  })();
});
tick();
process.send!({ cmd: 'ready' });
