import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { TemplatesController } from './templates.controller';
import { SandboxTemplatesService } from './templates.service';

@Module({
  imports: [NotificationsModule],
  controllers: [TemplatesController],
  providers: [SandboxTemplatesService],
})
export class TemplatesModule {}
