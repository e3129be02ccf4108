/*
 * The server side of a live-load benchmark, in its own process (forked with --expose-gc): either a real
 * node (`node`: filter sessions on the replay recogniser, frame hand-off probe on) or the transport
 * ceiling (`bare`: a uWebSockets.js server that only receives the frames). It measures itself —
 * event-loop delay, CPU, memory after GC, frame hand-off — and answers the parent over IPC.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import uws from 'uWebSockets.js';
import { LOOP_RESOLUTION_MS, summariseLoopDelay, summariseNs } from '../lib/stats.js';
import { HANDOFF_SAMPLE_EVERY, type ServerReply, type ServerRequest } from './protocol.js';

const mode = process.argv[2] === 'bare' ? 'bare' : 'node';
const key = `bench_${process.pid}`;
const eld = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
eld.enable();
let markCpu = process.cpuUsage();
let markAt = performance.now();
let markElu = performance.eventLoopUtilization();

const gc = (): void => {
  const run = (globalThis as { gc?: () => void }).gc;
  if (!run) throw new Error('start the server process with --expose-gc');
  run();
  run();
};

async function start(): Promise<{
  port: number;
  probe?: import('../../src/observability/frame-probe.js').FrameProbe;
  close: () => Promise<void>;
}> {
  if (mode === 'bare') {
    let frames = 0;
    const app = uws.App();
    app.ws('/voice/filter/stream', {
      maxPayloadLength: 256 * 1024,
      idleTimeout: 120,
      message: (ws, message, isBinary) => {
        if (isBinary) frames++;
        else if (Buffer.from(message).toString('utf8').includes('"start"'))
          ws.send(JSON.stringify({ type: 'session.started' }));
        else ws.end(1000, 'session ended');
      },
    });
    const socket = await new Promise<uws.us_listen_socket>((resolve, reject) =>
      app.listen('127.0.0.1', 0, (s) => (s ? resolve(s) : reject(new Error('listen failed')))),
    );
    return {
      port: uws.us_socket_local_port(socket),
      close: async () => {
        void frames;
        uws.us_listen_socket_close(socket);
      },
    };
  }
  const { loadConfig } = await import('../../src/config.js');
  const { createLogger } = await import('../../src/log.js');
  const { startNode } = await import('../../src/node.js');
  const { frameProbe } = await import('../../src/observability/frame-probe.js');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-bench-'));
  const config = loadConfig({
    VOICE_HOST: '127.0.0.1',
    VOICE_PORT: '0',
    VOICE_DATA_DIR: dataDir,
    VOICE_SIP_PORT: '0',
    VOICE_STT: process.env.BENCH_STT ?? 'replay',
    VOICE_LLM: 'local',
    VOICE_TTS: 'none',
    VOICE_MAX_SESSIONS: '100000',
    VOICE_RATE_LIMIT: '1000000',
    VOICE_DRAIN_SECONDS: '10',
    VOICE_LOG_LEVEL: 'warn',
    VOICE_BOOTSTRAP_KEYS: `${key}:1000000000`,
  });
  const node = await startNode(config, createLogger('warn'));
  frameProbe.enabled = true;
  frameProbe.sampleEvery = HANDOFF_SAMPLE_EVERY;
  return {
    port: node.port,
    probe: frameProbe,
    close: async () => {
      await node.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const server = await start();
const reply = (r: ServerReply): void => void process.send!(r);

process.on('message', (msg: ServerRequest) => {
  void (async () => {
    switch (msg.cmd) {
      case 'mark':
        eld.reset();
        server.probe?.handoffNs.reset();
        markCpu = process.cpuUsage();
        markAt = performance.now();
        markElu = performance.eventLoopUtilization();
        return reply({ cmd: 'mark' });
      case 'sample': {
        const cpu = process.cpuUsage(markCpu);
        return reply({
          cmd: 'sample',
          seconds: (performance.now() - markAt) / 1000,
          cpuSeconds: (cpu.user + cpu.system) / 1e6,
          loopUtilization: performance.eventLoopUtilization(markElu).utilization,
          eventLoopDelay: summariseLoopDelay(eld),
          handoff: server.probe ? summariseNs(server.probe.handoffNs) : null,
          rss: process.memoryUsage().rss,
        });
      }
      case 'gc': {
        gc();
        const m = process.memoryUsage();
        return reply({ cmd: 'gc', heapUsed: m.heapUsed, rss: m.rss, external: m.external + m.arrayBuffers });
      }
      case 'stop':
        await server.close();
        reply({ cmd: 'stop' });
        process.disconnect();
        setTimeout(() => process.exit(0), 200).unref();
    }
  })();
});
reply({ cmd: 'ready', port: server.port, key, mode });
