import { Module } from '@nestjs/common';
import { ContactIntakeService } from './contact-intake.service';
import { ContactsConsumer } from './contacts.consumer';
import { ContactsRpcController } from './contacts.rpc.controller';
import { ContactsService } from './contacts.service';

@Module({ controllers: [ContactsRpcController, ContactsConsumer], providers: [ContactsService, ContactIntakeService], exports: [ContactsService] })
export class ContactsModule {}
