import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { MessagingServiceConfig } from '../config/messaging-service.config';
import { VoiceCalls } from './voice-calls';
import { VoiceReplies } from './voice-replies';

/** The voice channel's shared state in Redis: the calls in progress and the replies waiting to be spoken. */
@Injectable()
export class VoiceState implements OnModuleDestroy {
  private readonly redis: Redis;
  readonly calls: VoiceCalls;
  readonly replies: VoiceReplies;

  constructor(config: MessagingServiceConfig) {
    this.redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
    this.calls = new VoiceCalls(this.redis);
    this.replies = new VoiceReplies(this.redis);
  }

  onModuleDestroy(): void {
    this.redis.disconnect();
  }
}
