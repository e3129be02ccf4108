/*
 * Where a POST /scan body is read. Reading a large one (UTF-8 decode and JSON.parse, or busboy over the
 * form, then the base64 decode) costs time in proportion to its size: up to seconds for 25 MB on a loaded
 * machine, during which the main thread, and every live call on it, would stand still. Bodies over
 * `OFF_THREAD_BYTES` are read on one worker thread instead; the body's memory is moved there and the
 * decoded audio moved back (transferred, not copied). Small bodies stay on the main thread, where a
 * message round trip would cost more than the read.
 */
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../../analysis/start-worker.js';
import { metrics } from '../../observability/metrics.js';
import { HttpError, type HttpRequest } from '../types.js';
import { readScanBody, validateScan, type ScanBody, type ScanRequest } from './scan-request.js';

export const OFF_THREAD_BYTES = 256 * 1024;

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(`./scan-body-worker${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);

export interface BodyJob {
  id: number;
  contentType: string;
  body: Uint8Array;
}

export type BodyReply =
  | {
      id: number;
      ok: true;
      fields: Record<string, unknown>;
      fromForm: boolean;
      file?: Uint8Array;
      base64?: Uint8Array | 'invalid';
    }
  | { id: number; ok: false; status?: number; message: string };

interface Pending {
  resolve: (r: BodyReply) => void;
  reject: (e: Error) => void;
}

/** The body thread, started with the first large body; `null` once it failed to start (then bodies stay here). */
let thread: { worker: Worker; up: Promise<boolean>; owed: Map<number, Pending> } | null | undefined;
let nextId = 1;

function start(): NonNullable<typeof thread> {
  const worker = startModuleWorker(WORKER_URL, undefined);
  worker.unref(); // until it owes an answer
  const owed = new Map<number, Pending>();
  let ready = false;
  const up = new Promise<boolean>((resolve) => {
    worker.on('message', (m: BodyReply | { ready: true }) => {
      if ('ready' in m) {
        ready = true;
        return resolve(true);
      }
      const p = owed.get(m.id);
      owed.delete(m.id);
      if (owed.size === 0) worker.unref();
      p?.resolve(m);
    });
    const lost = (err: Error): void => {
      if (thread?.worker !== worker) return; // 'error' is followed by 'exit'
      // Failing before it was ever ready is not transient (a broken build): read bodies here from now on.
      thread = ready ? undefined : null;
      resolve(false);
      for (const p of owed.values()) p.reject(err);
      owed.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`scan body thread exited with code ${code}`)));
  });
  return { worker, up, owed };
}

/** Reads the body on the body thread; `undefined` when that thread is not available. */
async function readOffThread(req: HttpRequest): Promise<ScanBody | undefined> {
  if (thread === null) return undefined;
  thread ??= start();
  const t = thread;
  if (!(await t.up)) return undefined;
  const id = nextId++;
  const body = req.body;
  // A body that owns its whole allocation (every large body `collectBody` assembles) is moved, not copied.
  const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
  const view = whole ? new Uint8Array(body.buffer) : new Uint8Array(body);
  const job: BodyJob = { id, contentType: req.headers['content-type'] ?? '', body: view };
  const reply = await new Promise<BodyReply>((resolve, reject) => {
    if (t.owed.size === 0) t.worker.ref();
    t.owed.set(id, { resolve, reject });
    t.worker.postMessage(job, [view.buffer as ArrayBuffer]);
  }).catch(() => {
    // The body went with the thread: it cannot be read again here.
    throw new HttpError(503, 'body: could not be read (the node is restarting a worker); try again');
  });
  if (!reply.ok) throw reply.status ? new HttpError(reply.status, reply.message) : new Error(reply.message);
  const read: ScanBody = { fields: reply.fields, fromForm: reply.fromForm };
  if (reply.file) read.file = Buffer.from(reply.file.buffer, reply.file.byteOffset, reply.file.byteLength);
  if (reply.base64 === 'invalid') read.base64 = 'invalid';
  else if (reply.base64)
    read.base64 = Buffer.from(reply.base64.buffer, reply.base64.byteOffset, reply.base64.byteLength);
  return read;
}

/** Parses and validates a scan request of either content type, reading large bodies off the main thread. */
export async function parseScanRequest(req: HttpRequest): Promise<ScanRequest> {
  if (req.body.length > OFF_THREAD_BYTES) {
    const read = await readOffThread(req);
    if (read) {
      metrics.scanBodies.inc({ on: 'worker' });
      return validateScan(read);
    }
  }
  metrics.scanBodies.inc({ on: 'thread' });
  return validateScan(await readScanBody(req));
}
