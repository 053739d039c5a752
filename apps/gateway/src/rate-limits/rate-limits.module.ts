import { Module } from '@nestjs/common';
import { AddressLimitGuard } from './address-limit.guard';
import { AddressRateLimiter } from './address-rate-limiter';

@Module({ providers: [AddressRateLimiter, AddressLimitGuard], exports: [AddressRateLimiter, AddressLimitGuard] })
export class RateLimitsModule {}
