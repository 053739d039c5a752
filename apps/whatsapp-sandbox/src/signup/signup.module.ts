import { Module } from '@nestjs/common';
import { NumbersModule } from '../numbers/numbers.module';
import { EmbeddedSignupController } from './embedded-signup.controller';
import { EmbeddedSignupService } from './embedded-signup.service';

@Module({ imports: [NumbersModule], controllers: [EmbeddedSignupController], providers: [EmbeddedSignupService] })
export class SignupModule {}
