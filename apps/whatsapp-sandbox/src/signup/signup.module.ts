import { Module } from '@nestjs/common';
import { MediaModule } from '../media/media.module';
import { NumbersModule } from '../numbers/numbers.module';
import { EmbeddedSignupController } from './embedded-signup.controller';
import { EmbeddedSignupService } from './embedded-signup.service';

@Module({ imports: [NumbersModule, MediaModule], controllers: [EmbeddedSignupController], providers: [EmbeddedSignupService] })
export class SignupModule {}
