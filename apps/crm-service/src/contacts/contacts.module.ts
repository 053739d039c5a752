import { Module } from '@nestjs/common';
import { ActivitiesModule } from '../activities/activities.module';
import { DealsModule } from '../deals/deals.module';
import { ContactIntakeService } from './contact-intake.service';
import { ContactIntakeStore } from './contact-intake.store';
import { ContactsConsumer } from './contacts.consumer';
import { ContactsRpcController } from './contacts.rpc.controller';
import { ContactsService } from './contacts.service';
import { ContactsStore } from './contacts.store';

@Module({ imports: [DealsModule, ActivitiesModule], controllers: [ContactsRpcController, ContactsConsumer], providers: [ContactsService, ContactsStore, ContactIntakeService, ContactIntakeStore], exports: [ContactsService] })
export class ContactsModule {}
