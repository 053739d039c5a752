import { Module } from '@nestjs/common';
import { ContactsModule } from '../contacts/contacts.module';
import { ContactImportWorker } from './contact-import.worker';
import { ContactImportsRpcController } from './contact-imports.rpc.controller';
import { ContactImportsService } from './contact-imports.service';
import { ContactImportsStore } from './contact-imports.store';

@Module({ imports: [ContactsModule], controllers: [ContactImportsRpcController], providers: [ContactImportsService, ContactImportsStore, ContactImportWorker] })
export class ImportsModule {}
