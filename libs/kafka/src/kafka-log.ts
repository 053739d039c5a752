import { logLevel, type LogEntry } from 'kafkajs';

/**
 * Broker answers that only mean leadership, a group coordinator or a group's members are moving (topics just created, a
 * broker restart, an instance joining).
 * kafkajs logs each such protocol response as an error, then retries the request itself, and whoever made the request
 * logs if the retries run out; the lines at start-up told operators of failures that were not.
 */
const TRANSIENT_ANSWERS = [
  'This server does not host this topic-partition',
  'There is no leader for this topic-partition',
  'This server is not the leader for that topic-partition',
  'The coordinator is loading',
  'The group coordinator is not available',
  'This is not the correct coordinator for this group',
  // a heartbeat's answer while the group rebalances: the member rejoins
  'The group is rebalancing, so a rejoin is needed',
];

/** The level a kafkajs log entry is written at: errors and warnings as they are, a transient protocol answer not at all. */
export function kafkaLogLevel({ level, log }: Pick<LogEntry, 'level' | 'log'>): 'error' | 'warn' | null {
  if (level !== logLevel.ERROR && level !== logLevel.WARN) return null;
  const error = typeof log.error === 'string' ? log.error : '';
  if (log.message.startsWith('Response ') && TRANSIENT_ANSWERS.some((answer) => error.startsWith(answer))) return null;
  return level === logLevel.ERROR ? 'error' : 'warn';
}
