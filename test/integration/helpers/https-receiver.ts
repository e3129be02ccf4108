import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface ReceivedPost {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
  body: Record<string, unknown>;
}

export interface HttpsReceiver {
  url: string;
  port: number;
  /** PEM of the self-signed certificate (trust it as the CA). */
  cert: string;
  posts: ReceivedPost[];
  /** How the next requests are answered (default 200). */
  respond: (req: ReceivedPost, res: import('node:http').ServerResponse) => void;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl for this test run. */
export function selfSignedCert(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'voice-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A local HTTPS webhook receiver recording every post with its exact raw body. */
export async function startHttpsReceiver(tls = selfSignedCert()): Promise<HttpsReceiver> {
  const posts: ReceivedPost[] = [];
  const receiver: HttpsReceiver = {
    url: '',
    port: 0,
    cert: tls.cert,
    posts,
    respond: (_p, res) => {
      res.writeHead(200).end('ok');
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        /* recorded raw */
      }
      const post = { path: req.url ?? '', headers: req.headers, raw, body };
      posts.push(post);
      receiver.respond(post, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `https://127.0.0.1:${receiver.port}`;
  return receiver;
}
