import { Module } from '@nestjs/common';
import { ActivitiesConsumer } from './activities.consumer';
import { ActivitiesRpcController } from './activities.rpc.controller';
import { TimelineErasureConsumer } from './timeline-erasure.consumer';
import { ActivitiesService } from './activities.service';
import { ActivitiesStore } from './activities.store';

@Module({ controllers: [ActivitiesRpcController, ActivitiesConsumer, TimelineErasureConsumer], providers: [ActivitiesService, ActivitiesStore], exports: [ActivitiesService] })
export class ActivitiesModule {}
