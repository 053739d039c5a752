import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTwilio {
  /** Where the service sends (its SANDBOX_URL: the sandbox plays Twilio's Messages API). */
  url: string;
  /** Each create's form, in the order they came. */
  forms: URLSearchParams[];
  close(): Promise<void>;
}

/** A Twilio Messages API stand-in: answers each create with a new message sid (`queued`) and records the form. */
export async function fakeTwilio(): Promise<FakeTwilio> {
  const forms: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      forms.push(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${randomBytes(16).toString('hex')}`, status: 'queued' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, forms, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
