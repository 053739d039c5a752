import { Module } from '@nestjs/common';
import { SandboxNumbersController } from './numbers.controller';
import { NumbersService } from './numbers.service';

@Module({ controllers: [SandboxNumbersController], providers: [NumbersService], exports: [NumbersService] })
export class NumbersModule {}
