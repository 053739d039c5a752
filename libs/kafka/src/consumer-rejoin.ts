import type { Consumer } from 'kafkajs';

/** Consumers whose `disconnect()` we called (KafkaConnection.consumer marks them): stopped for good. */
const stoppedByUs = new WeakSet<Consumer>();

/** Records that `consumer` is being disconnected on purpose, not by kafkajs's own handling of a crash. */
export function markStoppedByUs(consumer: Consumer): void {
  stoppedByUs.add(consumer);
}

/** Whether `disconnect()` was called on `consumer` (it must then not be restarted after a crash). */
export function isStoppedByUs(consumer: Consumer): boolean {
  return stoppedByUs.has(consumer);
}

/**
 * Resolves when `consumer` has joined its group after a crash it restarts from; rejects if it crashed for good or we
 * disconnected it meanwhile. A crash that kafkajs restarts from drops the consumer's group state, and with it any seek
 * (KafkaConnection.runFromTheEnd).
 *
 * kafkajs handles a crash by disconnecting the consumer first (a DISCONNECT event) and only then says whether it
 * restarts (CRASH with `restart`), so a DISCONNECT alone ends nothing: only ours does (a fresh-clone run failed on
 * that: the coordinator still loading at a broker's start crashed the first join, and the crash's own DISCONNECT was
 * taken for a stop).
 */
export function untilRejoined(consumer: Consumer): { promise: Promise<void>; cancel: () => void } {
  const removers: (() => void)[] = [];
  const cancel = () => removers.splice(0).forEach((remove) => remove());
  const promise = new Promise<void>((resolve, reject) => {
    let crashed = false;
    removers.push(
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        crashed = true;
        if (!payload.restart) {
          cancel();
          reject(payload.error);
        }
      }),
      consumer.on(consumer.events.GROUP_JOIN, () => {
        if (!crashed) return;
        cancel();
        resolve();
      }),
      consumer.on(consumer.events.DISCONNECT, () => {
        if (!isStoppedByUs(consumer)) return;
        cancel();
        reject(new Error('the consumer was disconnected before it joined its group again'));
      }),
    );
  });
  promise.catch(() => undefined); // observed only when the pinning needs it
  return { promise, cancel };
}
