import { Module } from '@nestjs/common';
import { AddressLimitGuard } from './address-limit.guard';
import { AddressRateLimiter } from './address-rate-limiter';
import { FailedAttemptLimiter } from './failed-attempt-limiter';

@Module({ providers: [AddressRateLimiter, AddressLimitGuard, FailedAttemptLimiter], exports: [AddressRateLimiter, AddressLimitGuard, FailedAttemptLimiter] })
export class RateLimitsModule {}
