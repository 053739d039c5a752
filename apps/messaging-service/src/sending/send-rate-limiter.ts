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

/** Per-number send pacing shared by all instances (Redis). */
@Injectable()
export class SendRateLimiter implements OnApplicationShutdown {
  private readonly redis: Redis;

  constructor(config: MessagingServiceConfig) {
    this.redis = new Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    this.redis.defineCommand('reserveSendSlot', { numberOfKeys: 1, lua: RESERVE_SLOT });
  }

  /** Delay (ms) until this number's next free slot, which is now taken for the caller. */
  async reserve(channelId: string, perSecond: number): Promise<number> {
    const reserve = (this.redis as unknown as { reserveSendSlot(key: string, interval: string): Promise<number> }).reserveSendSlot;
    return reserve.call(this.redis, `parley:send-slot:${channelId}`, (1000 / perSecond).toFixed(3));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}
