import { Module } from '@nestjs/common';
import { NumbersModule } from '../numbers/numbers.module';
import { CloudMediaController } from './cloud-media.controller';
import { MediaStore } from './media.store';
import { SandboxMediaController } from './sandbox-media.controller';
import { SandboxMediaService } from './sandbox-media.service';

@Module({
  imports: [NumbersModule],
  controllers: [CloudMediaController, SandboxMediaController],
  providers: [SandboxMediaService, MediaStore],
  exports: [SandboxMediaService],
})
export class MediaModule {}
