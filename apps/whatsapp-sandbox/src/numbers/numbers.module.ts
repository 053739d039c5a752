import { Module } from '@nestjs/common';
import { SandboxNumbersController } from './numbers.controller';
import { NumberBehaviours } from './number-behaviours';
import { NumbersStore } from './numbers.store';
import { NumbersService } from './numbers.service';

@Module({ controllers: [SandboxNumbersController], providers: [NumbersService, NumbersStore, NumberBehaviours], exports: [NumbersService, NumberBehaviours] })
export class NumbersModule {}
