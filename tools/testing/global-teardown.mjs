import { stopBroker } from '../kafka/kafka.mjs';

export default async function globalTeardown() {
  for (const container of globalThis.__PARLEY_CONTAINERS__ ?? []) await container.stop();
  if (globalThis.__PARLEY_BROKER_STARTED__) await stopBroker();
}
