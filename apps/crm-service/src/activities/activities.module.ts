import { Module } from '@nestjs/common';
import { ActivitiesConsumer } from './activities.consumer';
import { ActivitiesRpcController } from './activities.rpc.controller';
import { ActivitiesService } from './activities.service';

@Module({ controllers: [ActivitiesRpcController, ActivitiesConsumer], providers: [ActivitiesService], exports: [ActivitiesService] })
export class ActivitiesModule {}
