import { Controller, Module, type INestApplication } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { newId, notFoundProblem, type CompanyRecord, type ContactRecord, type RpcRequest, type RpcResponse } from '@parley/contracts';
import { KafkaModule } from '@parley/kafka';
import { ProblemException, createServiceApp, loggerParams } from '@parley/service-kit';
import { pollUntil, testInfra } from '@parley/testing';
import ICAL from 'ical.js';
import { LoggerModule } from 'nestjs-pino';
import { GatewayTestApp, type CreatedAccount } from '../test/gateway-test-app';

/** Contacts and companies by tenant, as crm-service would keep them (its own specs test the real thing). */
const contacts = new Map<string, ContactRecord & { tenant_id: string }>();
const companies = new Map<string, CompanyRecord & { tenant_id: string }>();

/** Plays crm-service's contacts.get and companies.get over the real broker, tenant-scoped as it is. */
@Controller()
class CrmStandIn {
  @MessagePattern('contacts.get')
  contact(@Payload() req: RpcRequest<'contacts.get'>): RpcResponse<'contacts.get'> {
    const found = contacts.get(req.id);
    if (!found || found.tenant_id !== req.tenant_id) throw new ProblemException(notFoundProblem(`Contact "${req.id}"`));
    const { tenant_id: _tenant, ...record } = found;
    return record;
  }

  @MessagePattern('companies.get')
  company(@Payload() req: RpcRequest<'companies.get'>): RpcResponse<'companies.get'> {
    const found = companies.get(req.id);
    if (!found || found.tenant_id !== req.tenant_id) throw new ProblemException(notFoundProblem(`Company "${req.id}"`));
    const { tenant_id: _tenant, ...record } = found;
    return record;
  }
}

describe('gateway: GET /api/v1/contacts/{id}.vcf (CONTRACT.md §14)', () => {
  let gw: GatewayTestApp;
  let crm: INestApplication | undefined;
  let alice: CreatedAccount;
  let bob: CreatedAccount;
  const contactId = newId('ctc');
  const companyId = newId('cmp');
  const now = new Date().toISOString();

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwvcard');
    [alice, bob] = [await gw.signUp('Alice Dental'), await gw.signUp('Bob Barber')];
    companies.set(companyId, { tenant_id: alice.tenant_id, id: companyId, name: 'Lima & Filhos, Lda', domain: null, attributes: {}, created_at: now, updated_at: now });
    contacts.set(contactId, {
      tenant_id: alice.tenant_id,
      id: contactId,
      phone: '+351912345678',
      email: 'ana@lima.example',
      name: 'Ana Lima, "Nana"',
      company_id: companyId,
      tags: ['vip', 'porto,norte'],
      attributes: {},
      opted_out: false,
      created_at: now,
      updated_at: now,
    });
    @Module({
      imports: [
        LoggerModule.forRoot(loggerParams('fake-crm', 'warn')),
        KafkaModule.forRootAsync({ useFactory: () => ({ brokers: testInfra().kafkaBrokers.split(','), clientId: 'fake-crm', namespace: gw.config.KAFKA_TOPIC_PREFIX }) }),
      ],
      controllers: [CrmStandIn],
    })
    class FakeCrmModule {}
    crm = await createServiceApp(FakeCrmModule, { consumeKafka: true });
    await crm.startAllMicroservices();
  });

  afterAll(async () => {
    await crm?.close();
    await gw?.close();
  });

  it('answers the contact as a vCard 4.0 that parses back to its fields', async () => {
    const answer = await pollUntil(
      async () => {
        const a = await gw.request('GET', `/api/v1/contacts/${contactId}.vcf`, { token: alice.api_key });
        return a.status === 200 ? a : undefined;
      },
      { description: 'the crm-service stand-in answering', timeoutMs: 30_000 },
    );
    expect(answer.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
    const card = new ICAL.Component(ICAL.parse(answer.body as string));
    expect(card.getFirstPropertyValue('version')).toBe('4.0');
    expect(card.getFirstPropertyValue('uid')).toBe(contactId);
    expect(card.getFirstPropertyValue('fn')).toBe('Ana Lima, "Nana"');
    expect(card.getFirstPropertyValue('tel')).toBe('tel:+351912345678');
    expect(card.getFirstPropertyValue('email')).toBe('ana@lima.example');
    expect(card.getFirstPropertyValue('org')).toBe('Lima & Filhos, Lda');
    expect(card.getFirstProperty('categories')!.getValues()).toEqual(['vip', 'porto,norte']);
  });

  it("answers 404 for another tenant's contact, an unknown one and an impossible id, and 401 without a credential", async () => {
    for (const [token, path] of [
      [bob.api_key, `/api/v1/contacts/${contactId}.vcf`],
      [alice.api_key, `/api/v1/contacts/${newId('ctc')}.vcf`],
      [alice.api_key, '/api/v1/contacts/nope.vcf'],
    ]) {
      const answer = await gw.request('GET', path, { token });
      expect({ path, status: answer.status }).toEqual({ path, status: 404 });
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
    }
    expect((await gw.request('GET', `/api/v1/contacts/${contactId}.vcf`)).status).toBe(401);
  });
});
