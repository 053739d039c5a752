import { Controller, Get, Header, Param } from '@nestjs/common';
import { RpcClient, RpcProblemError } from '@parley/kafka';
import { PrefixedIdPipe } from '../http/param-pipes';
import { RequestId, Tenant } from '../http/request-context';
import { ApiRoute } from '../openapi/api-route.decorator';
import { contactVCard } from './vcard';

const ContactId = new PrefixedIdPipe('ctc', 'Contact');

/** `GET /api/v1/contacts/{id}.vcf` (CONTRACT.md §14): a contact of crm-service's as vCard 4.0. */
@Controller('api/v1/contacts')
export class ContactVCardController {
  constructor(private readonly rpc: RpcClient) {}

  @ApiRoute({
    summary: 'A contact as vCard 4.0',
    description: 'RFC 6350: FN (the name, else the number or email), TEL as a `tel:` URI, EMAIL, ORG (its company), CATEGORIES (its tags), REV; for address books.',
    access: 'tenant',
    success: { status: 200, description: 'The vCard.', contentType: 'text/vcard', schema: { type: 'string' } },
    errors: [404, 503],
  })
  @Get(':id.vcf')
  @Header('content-type', 'text/vcard; charset=utf-8')
  async vcard(@Tenant() tenantId: string, @Param('id', ContactId) id: string, @RequestId() requestId: string): Promise<string> {
    const contact = await this.rpc.request('contacts.get', { tenant_id: tenantId, id }, { requestId });
    const company = contact.company_id
      ? await this.rpc.request('companies.get', { tenant_id: tenantId, id: contact.company_id }, { requestId }).catch((err: unknown) => {
          // deleted since the contact was read: the card goes without ORG
          if (err instanceof RpcProblemError && err.problem.status === 404) return null;
          throw err;
        })
      : null;
    return contactVCard(contact, company?.name ?? null);
  }
}
