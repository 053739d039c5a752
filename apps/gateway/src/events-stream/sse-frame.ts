import type { EventEnvelope } from '@parley/contracts';

/**
 * Server-sent-events framing (WHATWG HTML §9.2). JSON never contains a raw newline, so one `data:` line carries the
 * whole payload; ids and types are ours (no newlines either).
 */
export function eventFrame(envelope: Pick<EventEnvelope, 'id' | 'type' | 'data'>): string {
  return `id: ${envelope.id}\nevent: ${envelope.type}\ndata: ${JSON.stringify(envelope.data)}\n\n`;
}

/** Tells the browser how long to wait before reconnecting after the stream drops. */
export function retryFrame(ms: number): string {
  return `retry: ${ms}\n\n`;
}

/** A comment line: ignored by clients, but it keeps proxies and load balancers from closing an idle stream. */
export function commentFrame(text: string): string {
  return `: ${text}\n\n`;
}
