import { Module } from '@nestjs/common';
import { TeamModule } from '../identity/team/team.module';
import { CompaniesController } from './companies.controller';
import { ContactVCardController } from './contact-vcard.controller';
import { ContactsController } from './contacts.controller';
import { DealsController } from './deals.controller';
import { PipelinesController } from './pipelines.controller';

/** Contacts, companies, pipelines and deals (CONTRACT.md §14): owned by crm-service, over request-reply. */
@Module({ imports: [TeamModule], controllers: [ContactsController, ContactVCardController, CompaniesController, PipelinesController, DealsController] })
export class CrmModule {}
