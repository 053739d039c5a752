import { Module } from '@nestjs/common';
import { ContactErasureConsumer } from './contact-erasure.consumer';
import { ContactErasureStore } from './contact-erasure.store';

@Module({ controllers: [ContactErasureConsumer], providers: [ContactErasureStore] })
export class ErasureModule {}
