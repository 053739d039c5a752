import { Global, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { Readiness } from '@parley/service-kit';
import { RedisService } from './redis.service';

/** The gateway's one Redis client, for every feature; `GET /health/ready` includes a Redis check. */
@Global()
@Module({ providers: [RedisService], exports: [RedisService] })
export class RedisModule implements OnApplicationBootstrap {
  constructor(
    private readonly redis: RedisService,
    private readonly readiness: Readiness,
  ) {}

  onApplicationBootstrap(): void {
    this.readiness.register('redis', () => this.redis.ping());
  }
}
