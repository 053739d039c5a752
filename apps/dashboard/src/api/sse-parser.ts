/** One server-sent event (`event` defaults to `message`, as in the browser's EventSource). */
export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * An incremental `text/event-stream` parser (WHATWG HTML §9.2.6), for reading the stream with `fetch`: EventSource
 * cannot send the Authorization header. Feed it decoded chunks as they arrive; it calls back once per complete event.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly onRetry: (ms: number) => void = () => undefined,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) return;
      // A lone `\r` at the end of a chunk may be the first half of `\r\n`: wait for the next chunk.
      if (this.buffer[end] === '\r' && end === this.buffer.length - 1) return;
      const length = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + length);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const raw = colon < 0 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.onRetry(Number(value));
  }

  private dispatch(): void {
    const data = this.data;
    const event = this.event || 'message';
    this.data = [];
    this.event = '';
    if (data.length === 0) return;
    this.onEvent({ id: this.id, event, data: data.join('\n') });
  }
}
