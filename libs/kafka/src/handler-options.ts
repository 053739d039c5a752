import type { MessageHandler } from '@nestjs/microservices';
import type { IHeaders } from 'kafkajs';
import type { SkipUnreadWhen } from './kafka-transport';

/**
 * What an `@EventPattern(topic, options)` handler may ask of the transport (kafka-transport.ts documents each:
 * `BatchByKey` and its lingering kinds, `SettledAfterGathering`, `skipUnreadWhen`). Options arrive untyped through
 * Nest's extras, so the transport checks them at start (`handlerOptionProblems`): a misspelt one would otherwise be
 * ignored without a word, and a consumer meant to skip records unread would read them all.
 */
interface HandlerOptions {
  batchByKey?: boolean;
  lingerMs?: number;
  settleMs?: number;
  skipUnreadWhen?: SkipUnreadWhen;
}

const KNOWN_OPTIONS: ReadonlySet<string> = new Set<keyof HandlerOptions>(['batchByKey', 'lingerMs', 'settleMs', 'skipUnreadWhen']);

function optionsOf(handler: MessageHandler | undefined): HandlerOptions {
  return (handler?.extras ?? {}) as HandlerOptions;
}

/** Why the handler of `pattern` cannot run as registered; empty when it can. */
export function handlerOptionProblems(pattern: string, handler: MessageHandler): string[] {
  const options = optionsOf(handler) as Record<string, unknown>;
  const problems = Object.keys(options)
    .filter((key) => !KNOWN_OPTIONS.has(key))
    .map((key) => `${pattern}: unknown handler option "${key}" (known: ${[...KNOWN_OPTIONS].join(', ')})`);
  if (options['settleMs'] !== undefined && isBatchHandler(handler)) {
    problems.push(`${pattern}: SettledAfterGathering is for one-message handlers, and this is a batch handler`);
  }
  const when = options['skipUnreadWhen'];
  if (when !== undefined) {
    const pairs = when !== null && typeof when === 'object' ? Object.entries(when) : [];
    if (pairs.length === 0 || pairs.some(([, value]) => typeof value !== 'string')) {
      problems.push(`${pattern}: skipUnreadWhen must name at least one header and the string value to skip on`);
    }
  }
  return problems;
}

export function isBatchHandler(handler: MessageHandler): boolean {
  return optionsOf(handler).batchByKey === true;
}

/** How long after its record was produced the handler may run at the earliest (`SettledAfterGathering`); 0 for at once. */
export function settleOf(handler: MessageHandler): number {
  const settleMs = optionsOf(handler).settleMs;
  return typeof settleMs === 'number' && settleMs > 0 ? settleMs : 0;
}

/** How long the handler's consumer lingers after each batch (`GatheredBatchByKey` and the like); 0 for none. */
export function lingerOf(handler: MessageHandler): number {
  const lingerMs = optionsOf(handler).lingerMs;
  return typeof lingerMs === 'number' && lingerMs > 0 ? lingerMs : 0;
}

/** Whether the handler's `skipUnreadWhen` says this record is not its own (decided on the raw headers, nothing parsed). */
export function skipsUnread(handler: MessageHandler | undefined, headers: IHeaders | undefined): boolean {
  const when = optionsOf(handler).skipUnreadWhen;
  if (!when || !headers) return false;
  for (const [name, value] of Object.entries(when)) {
    const raw = headers[name];
    const found = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : undefined;
    if (found !== value) return false;
  }
  return true;
}
