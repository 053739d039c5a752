import { EventEmitter } from 'node:events';
import type { Consumer } from 'kafkajs';
import { isStoppedByUs, markStoppedByUs, untilRejoined } from './consumer-rejoin';

/**
 * The events of a kafkajs consumer, emitted as kafkajs emits them. Its crash handler (consumer/index.js `onCrash`)
 * disconnects first, which emits DISCONNECT, and only then emits CRASH with whether it restarts; the restarted consumer
 * emits GROUP_JOIN when it has joined again.
 */
class ConsumerEvents {
  private readonly emitter = new EventEmitter();
  readonly events = { CRASH: 'consumer.crash', GROUP_JOIN: 'consumer.group_join', DISCONNECT: 'consumer.disconnect' };

  on(event: string, listener: (e: { payload: unknown }) => void): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }

  crash(error: Error, restart: boolean): void {
    this.emitter.emit(this.events.DISCONNECT, { payload: {} });
    this.emitter.emit(this.events.CRASH, { payload: { error, restart } });
  }

  joined(): void {
    this.emitter.emit(this.events.GROUP_JOIN, { payload: {} });
  }

  disconnected(): void {
    this.emitter.emit(this.events.DISCONNECT, { payload: {} });
  }

  get listeners(): number {
    return Object.values(this.events).reduce((n, event) => n + this.emitter.listenerCount(event), 0);
  }
}

const settled = async (promise: Promise<void>): Promise<'resolved' | 'pending' | Error> =>
  Promise.race([promise.then(() => 'resolved' as const, (err: Error) => err), new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);

describe('untilRejoined', () => {
  it('waits through the disconnect of a crash kafkajs restarts from, and resolves when the consumer has joined again', async () => {
    const events = new ConsumerEvents();
    const { promise } = untilRejoined(events as unknown as Consumer);
    events.crash(new Error("The coordinator is loading and hence can't process requests for this group"), true);
    expect(await settled(promise)).toBe('pending');
    events.joined();
    expect(await settled(promise)).toBe('resolved');
    expect(events.listeners).toBe(0);
  });

  it('does not take the first join, before any crash, for a join again', async () => {
    const events = new ConsumerEvents();
    const { promise } = untilRejoined(events as unknown as Consumer);
    events.joined();
    expect(await settled(promise)).toBe('pending');
  });

  it('rejects with the error of a crash kafkajs does not restart from', async () => {
    const events = new ConsumerEvents();
    const { promise } = untilRejoined(events as unknown as Consumer);
    events.crash(new Error('not authorised'), false);
    expect(await settled(promise)).toEqual(new Error('not authorised'));
    expect(events.listeners).toBe(0);
  });

  it('rejects when we disconnected the consumer (a shutdown during the wait), and remembers it as stopped', async () => {
    const events = new ConsumerEvents();
    const consumer = events as unknown as Consumer;
    const { promise } = untilRejoined(consumer);
    expect(isStoppedByUs(consumer)).toBe(false);
    markStoppedByUs(consumer);
    events.disconnected();
    expect(await settled(promise)).toEqual(new Error('the consumer was disconnected before it joined its group again'));
    expect(isStoppedByUs(consumer)).toBe(true);
  });

  it('stops listening when cancelled', () => {
    const events = new ConsumerEvents();
    const { cancel } = untilRejoined(events as unknown as Consumer);
    expect(events.listeners).toBe(3);
    cancel();
    expect(events.listeners).toBe(0);
  });
});
