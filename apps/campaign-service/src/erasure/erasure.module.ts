import { Module } from '@nestjs/common';
import { ContactErasureConsumer } from './contact-erasure.consumer';
import { ContactErasureService } from './contact-erasure.service';

@Module({ controllers: [ContactErasureConsumer], providers: [ContactErasureService] })
export class ErasureModule {}
