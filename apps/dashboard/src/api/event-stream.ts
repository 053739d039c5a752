import { SseParser, type SseEvent } from './sse-parser';

/** `connecting`: the first attempt is under way; `open`: events flow; `down`: it failed and is retrying (with back-off). */
export type StreamState = 'connecting' | 'open' | 'down';

export const EVENTS_STREAM_PATH = '/api/v1/events/stream';

export interface EventStreamOptions {
  url: string;
  /** Read before every (re)connection, like the API client's. */
  token(): string | undefined;
  onEvent(event: SseEvent): void;
  onState(state: StreamState): void;
  /** The credential was refused: the stream stops (retrying would not help). */
  onUnauthorized(): void;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * Reads the gateway's event stream with `fetch` and reconnects after a drop, waiting the server's `retry:` hint doubled
 * per failure in a row (capped, with jitter so many tabs do not reconnect at once). Returns the function that stops it.
 */
export function openEventStream(options: EventStreamOptions): () => void {
  const abort = new AbortController();
  let retryMs = 3000;
  let failures = 0;

  const connectOnce = async (): Promise<'unauthorized' | 'ended'> => {
    const token = options.token();
    const response = await fetch(options.url, {
      headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      cache: 'no-store',
      signal: abort.signal,
    });
    if (response.status === 401) return 'unauthorized';
    if (!response.ok || !response.body) throw new Error(`the event stream answered HTTP ${response.status}`);
    failures = 0;
    options.onState('open');
    const parser = new SseParser(options.onEvent, (ms) => (retryMs = ms));
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'ended';
      parser.push(value);
    }
  };

  void (async () => {
    options.onState('connecting');
    while (!abort.signal.aborted) {
      try {
        if ((await connectOnce()) === 'unauthorized') return options.onUnauthorized();
      } catch {
        if (abort.signal.aborted) return;
      }
      failures += 1;
      options.onState('down');
      const backoff = Math.min(MAX_BACKOFF_MS, retryMs * 2 ** (failures - 1));
      await sleep(backoff * (0.5 + Math.random() / 2), abort.signal);
    }
  })();
  return () => abort.abort();
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (window.clearTimeout(timer), resolve()), { once: true });
  });
}
