/** IPC messages between the benchmark runner and its server and load-client processes. */
import type { Summary } from '../lib/stats.js';

/** The node's hand-off probe times one frame in this many: still tens of thousands a minute, at a tenth of its cost. */
export const HANDOFF_SAMPLE_EVERY = 10;

export type ServerRequest = { cmd: 'mark' } | { cmd: 'sample' } | { cmd: 'gc' } | { cmd: 'stop' };

export type ServerReply =
  | { cmd: 'ready'; port: number; key: string; mode: 'node' | 'bare' }
  | { cmd: 'mark' }
  | {
      cmd: 'sample';
      seconds: number;
      cpuSeconds: number;
      /** Share of the window the main thread's event loop was busy (the node's capacity limit). */
      loopUtilization: number;
      eventLoopDelay: Summary;
      handoff: Summary | null;
      rss: number;
    }
  | { cmd: 'gc'; heapUsed: number; rss: number; external: number }
  | { cmd: 'stop' };

export type ClientRequest =
  /**
   * Opens sessions until `total` are live on `url`, at most `rate` new ones a second; `paused` ones connect
   * and start but send no audio until resumed. With `life`, each is a call in progress (see `remainingLife`)
   * that stops when its time is up; otherwise it lives until stopped.
   */
  | {
      cmd: 'open';
      url: string;
      key: string;
      total: number;
      rate: number;
      paused?: boolean;
      life?: { minMs: number; maxMs: number };
    }
  /** Pauses or resumes the audio of every session on `url` (a resumed one starts again from now). */
  | { cmd: 'stream'; url: string; on: boolean }
  /** Stops the youngest sessions on `url` until `total` are left. */
  | { cmd: 'trim'; url: string; total: number }
  /** Keeps `live` sessions, each living `minMs`..`maxMs` then stopping, replaced at once (soak, capacity). */
  | { cmd: 'churn'; url: string; key: string; live: number; minMs: number; maxMs: number }
  /** Stops replacing sessions and lets every live one run on until stopped. */
  | { cmd: 'freeze' }
  | { cmd: 'mark' }
  | { cmd: 'sample' }
  /** Stops every session (a stop message), waits for the sockets to close. */
  | { cmd: 'closeAll' };

export type ClientReply =
  /** `live`: the sessions on that url. */
  | { cmd: 'open'; live: number; failed: number; seconds: number }
  | { cmd: 'stream'; sessions: number }
  | { cmd: 'trim'; live: number }
  | { cmd: 'churn' }
  | { cmd: 'freeze' }
  | { cmd: 'mark' }
  | {
      cmd: 'sample';
      live: number;
      /** Sessions being opened (replacements, while churning). */
      opening: number;
      opened: number;
      ended: number;
      failed: number;
      unexpectedCloses: number;
      framesSent: number;
      lineLatency: import('../lib/stats.js').Summary;
      verdictLatency: import('../lib/stats.js').Summary;
      sendLateness: import('../lib/stats.js').Summary;
      clientEventLoopDelay: import('../lib/stats.js').Summary;
      clientCpuSeconds: number;
    }
  | { cmd: 'closeAll'; closed: number };
