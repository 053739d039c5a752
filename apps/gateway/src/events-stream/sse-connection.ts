import type { ServerResponse } from 'node:http';
import { commentFrame, retryFrame } from './sse-frame';

export interface SseLimits {
  /** How often an idle stream gets a comment, so proxies do not time it out. */
  keepAliveMs: number;
  /** The reconnection delay suggested to the client (`retry:`). */
  retryMs: number;
  /** Bytes a client may leave unread before it is disconnected: a slow reader costs bounded memory. */
  maxBufferedBytes: number;
}

/** One client's open stream: writes frames, keeps it alive, and reports once when it is gone (whoever closed it). */
export class SseConnection {
  private readonly keepAlive: NodeJS.Timeout;
  private closed = false;

  constructor(
    readonly tenantId: string,
    private readonly response: ServerResponse,
    private readonly limits: SseLimits,
    private readonly onClosed: (connection: SseConnection) => void,
  ) {
    response.on('close', () => this.release());
    this.keepAlive = setInterval(() => this.send(commentFrame('keep-alive')), limits.keepAliveMs);
    this.keepAlive.unref();
    if (response.destroyed) this.release(); // the client left while the stream was being opened
    else this.send(retryFrame(limits.retryMs));
  }

  get isOpen(): boolean {
    return !this.closed && !this.response.destroyed;
  }

  /** Queues a frame; a client whose unread backlog passes the limit is cut off rather than buffered further. */
  send(frame: string): void {
    if (!this.isOpen) return;
    this.response.write(frame);
    if (this.response.writableLength > this.limits.maxBufferedBytes) this.response.destroy();
  }

  /** Ends the stream (shutdown); the client reconnects, to this or another instance. */
  end(): void {
    if (this.isOpen) this.response.end();
  }

  private release(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepAlive);
    this.onClosed(this);
  }
}
