/*
 * The scan body thread: reads large POST /scan bodies (UTF-8 decode and JSON.parse, or the multipart form)
 * and decodes their base64 audio, for the main thread (`scan-body.ts`), which carries every live call.
 */
import { parentPort } from 'node:worker_threads';
import { HttpError } from '../types.js';
import type { BodyJob, BodyReply } from './scan-body.js';
import { readScanBody } from './scan-request.js';

/** A view the main thread can take whole: a buffer sharing its memory (a pool, a longer allocation) is copied. */
function own(buf: Buffer): Uint8Array {
  return buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength
    ? new Uint8Array(buf.buffer)
    : new Uint8Array(buf);
}

parentPort!.on('message', (job: BodyJob) => {
  const body = Buffer.from(job.body);
  readScanBody({ headers: { 'content-type': job.contentType }, body }).then(
    ({ fields, fromForm, file, base64 }) => {
      const reply: BodyReply = { id: job.id, ok: true, fields, fromForm };
      const moved: ArrayBuffer[] = [];
      if (file) moved.push((reply.file = own(file)).buffer as ArrayBuffer);
      if (base64 === 'invalid') reply.base64 = base64;
      else if (base64) moved.push((reply.base64 = own(base64)).buffer as ArrayBuffer);
      parentPort!.postMessage(reply, moved);
    },
    (err: unknown) => {
      const reply: BodyReply =
        err instanceof HttpError
          ? { id: job.id, ok: false, status: err.status, message: err.message }
          : { id: job.id, ok: false, message: String(err) };
      parentPort!.postMessage(reply);
    },
  );
});
parentPort!.postMessage({ ready: true });
