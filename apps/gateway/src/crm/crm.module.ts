import { Module } from '@nestjs/common';
import { CompaniesController } from './companies.controller';
import { ContactsController } from './contacts.controller';

/** Contacts and companies (CONTRACT.md §14): owned by crm-service, over request-reply. */
@Module({ controllers: [ContactsController, CompaniesController] })
export class CrmModule {}
