import { Module } from '@nestjs/common';
import { GatewayNotifier } from './gateway-notifier.service';
import { NotificationDispatcher } from './notification-dispatcher.service';
import { NotificationOutbox } from './notification-outbox.store';
import { StatusCallbacks } from './status-callbacks.service';

@Module({
  providers: [GatewayNotifier, StatusCallbacks, NotificationOutbox, NotificationDispatcher],
  exports: [GatewayNotifier, StatusCallbacks, NotificationOutbox, NotificationDispatcher],
})
export class NotificationsModule {}
