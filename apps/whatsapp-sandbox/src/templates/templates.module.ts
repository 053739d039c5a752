import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { TemplatesController } from './templates.controller';
import { SandboxTemplatesService } from './templates.service';
import { TemplatesStore } from './templates.store';

@Module({
  imports: [NotificationsModule],
  controllers: [TemplatesController],
  providers: [SandboxTemplatesService, TemplatesStore],
})
export class TemplatesModule {}
