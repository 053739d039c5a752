import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { MessagingServiceConfig } from '../config/messaging-service.config';

/**
 * Reserves the next send slot of one number: slots are `1000 / limit` ms apart (GCRA without burst), so any one-second
 * window holds at most `limit` (+1 at its edge) sends and a burst is smoothed rather than refused. The clock is
 * Redis's, so every instance shares one schedule per number. Returns how many ms from now the reserved slot is.
 */
const RESERVE_SLOT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local nextTat = tat + interval
redis.call('SET', KEYS[1], string.format('%.3f', nextTat), 'PX', math.ceil(nextTat - now) + 1000)
return math.ceil(tat - now)
`;

/**
 * Pauses one business number → customer pair after a pair-rate error (131056): `pair_backoff_ms` doubles from
 * PAIR_BACKOFF_BASE_MS up to PAIR_BACKOFF_MAX_MS while the errors keep coming (it resets after 10 quiet minutes).
 * Returns the pause (ms).
 */
const PAUSE_PAIR = `
local previous = tonumber(redis.call('GET', KEYS[2]) or '0')
local pause = math.min(math.max(previous * 2, tonumber(ARGV[1])), tonumber(ARGV[2]))
redis.call('SET', KEYS[1], '1', 'PX', pause)
redis.call('SET', KEYS[2], pause, 'PX', 600000)
return pause
`;

export const PAIR_BACKOFF_BASE_MS = 6_000;
export const PAIR_BACKOFF_MAX_MS = 120_000;

type LimiterCommands = {
  reserveSendSlot(key: string, interval: string): Promise<number>;
  pausePair(pauseKey: string, levelKey: string, baseMs: string, maxMs: string): Promise<number>;
};

/** Per-number send pacing and per-recipient pauses, shared by all instances (Redis). */
@Injectable()
export class SendRateLimiter implements OnApplicationShutdown {
  private readonly redis: Redis;

  constructor(config: MessagingServiceConfig) {
    // Auto-pipelining: the checks of sends started together go to Redis in one write.
    this.redis = new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true, enableAutoPipelining: true });
    this.redis.defineCommand('reserveSendSlot', { numberOfKeys: 1, lua: RESERVE_SLOT });
    this.redis.defineCommand('pausePair', { numberOfKeys: 2, lua: PAUSE_PAIR });
  }

  private get commands(): LimiterCommands {
    return this.redis as unknown as LimiterCommands;
  }

  /** Delay (ms) until this number's next free slot, which is now taken for the caller. */
  async reserve(channelId: string, perSecond: number): Promise<number> {
    return this.commands.reserveSendSlot(`parley:send-slot:${channelId}`, (1000 / perSecond).toFixed(3));
  }

  /** The provider refused a send to `recipient` for the pair rate: pauses that pair (only). Returns the pause (ms). */
  async pausePair(channelId: string, recipient: string, baseMs = PAIR_BACKOFF_BASE_MS): Promise<number> {
    const key = `parley:pair-pause:${channelId}:${recipient}`;
    return this.commands.pausePair(key, `${key}:backoff`, String(baseMs), String(Math.max(baseMs, PAIR_BACKOFF_MAX_MS)));
  }

  /** How long (ms) the pair is still paused; 0 when it is not. */
  async pairPausedFor(channelId: string, recipient: string): Promise<number> {
    return Math.max(0, await this.redis.pttl(`parley:pair-pause:${channelId}:${recipient}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
