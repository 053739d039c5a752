import { Module } from '@nestjs/common';
import { GatewayNotifier } from './gateway-notifier.service';
import { StatusCallbacks } from './status-callbacks.service';

@Module({ providers: [GatewayNotifier, StatusCallbacks], exports: [GatewayNotifier, StatusCallbacks] })
export class NotificationsModule {}
