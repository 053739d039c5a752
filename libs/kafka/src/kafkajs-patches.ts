/**
 * Corrections to kafkajs 2.2.4 (pinned in package.json; the project is unmaintained and the fixes below are open pull
 * requests upstream), applied once when this library loads. Each names the upstream issue; drop it when a release
 * carries the fix.
 */

interface RequestQueueInternals {
  pending: unknown[];
  inflight: Map<number, { sentAt: number; requestTimeout: number; timeoutRequest(): void }>;
  requestTimeout: number;
  enforceRequestTimeout: boolean;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  isConnected(): boolean;
  destroy(): void;
  scheduleRequestTimeoutCheck(): void;
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  push(request: unknown): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs's own retry interval for requests held back by client-side throttling. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;
/** How often a connection looks for requests past their time-out (kafkajs: 100 ms; the time-outs are 10 s and more). */
const REQUEST_TIMEOUT_CHECK_MS = 1_000;

// The queue every broker connection sends through; internal to kafkajs, hence the deep path (same module instance).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals; patchedByParley?: boolean };

/**
 * tulios/kafkajs#1556 (fix proposed in #1667): after every response, a queue with nothing pending and no throttle
 * scheduled `setTimeout(check, negative)`, i.e. a 1 ms timer that re-arms itself for ever: every connection of every
 * client spun the event loop ~1,000 times a second, idle or not (3–4% of a core per idle consumer, measured). A check
 * is needed only while requests wait; a new request that has to wait schedules one itself (`push`), and a finished
 * request checks the queue (`fulfillRequest`).
 */
function scheduleCheckPendingRequests(this: RequestQueueInternals): void {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
  const throttledFor = this.throttledUntil - Date.now();
  this.throttleCheckTimeoutId = setTimeout(
    () => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    },
    throttledFor > 0 ? throttledFor : CHECK_PENDING_REQUESTS_INTERVAL_MS,
  );
}

/**
 * kafkajs looks for timed-out requests on every connection every 100 ms, for the life of the connection: with a
 * consumer's fetch always in flight that is ten wake-ups a second per connection of an idle service. Request time-outs
 * are 10 s and more, so once a second is as good (a timed-out request fails at most a second later). Otherwise as in
 * kafkajs.
 */
function scheduleRequestTimeoutCheck(this: RequestQueueInternals): void {
  if (!this.enforceRequestTimeout) return;
  this.destroy();
  this.requestTimeoutIntervalId = setInterval(
    () => {
      this.inflight.forEach((request) => {
        if (Date.now() - request.sentAt > request.requestTimeout) request.timeoutRequest();
      });
      if (!this.isConnected()) this.destroy();
    },
    Math.min(this.requestTimeout, REQUEST_TIMEOUT_CHECK_MS),
  );
}

if (!RequestQueue.patchedByParley) {
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests;
  RequestQueue.prototype.scheduleRequestTimeoutCheck = scheduleRequestTimeoutCheck;
  RequestQueue.patchedByParley = true;
}

/** The patched queue class, for the test that proves an idle queue arms no timer. */
export const KafkajsRequestQueue = RequestQueue as unknown as new (options: Record<string, unknown>) => RequestQueueInternals;
