import { newId } from '@parley/contracts';
import { ResponderHarness } from '../test/responder-harness';
import { LlmSettingsService } from './llm-settings.service';

const SETTINGS = { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-tenant-secret-7f3a', model: 'tenant-model', monthly_budget: '25.50' };

describe('tenant LLM settings (issue 23 item 7)', () => {
  let h: ResponderHarness;
  let settings: LlmSettingsService;

  beforeAll(async () => {
    h = await ResponderHarness.start('llm-settings');
    settings = h.app.get(LlmSettingsService);
  });

  afterAll(async () => {
    await h?.close();
  });

  it('stores the key encrypted, shows only its last four characters, and decrypts it for the LLM client', async () => {
    const tenant = newId('ten');
    const shown = await settings.put(tenant, SETTINGS);
    expect(shown).toEqual({ base_url: SETTINGS.base_url, model: 'tenant-model', monthly_budget: '25.500000', api_key_set: true, api_key_last4: '7f3a' });
    expect(JSON.stringify(await settings.get(tenant))).not.toContain(SETTINGS.api_key);

    const [row] = await h.sql.query(`SELECT api_key_encrypted FROM llm_settings WHERE tenant_id = $1`, [tenant]);
    expect(row.api_key_encrypted).not.toContain(SETTINGS.api_key);
    expect(row.api_key_encrypted.startsWith('v1:')).toBe(true);
    expect(await settings.tenantLlm(tenant)).toEqual({ baseUrl: SETTINGS.base_url, apiKey: SETTINGS.api_key, model: 'tenant-model', monthlyBudget: '25.500000' });
  });

  it('keeps each tenant to its own settings and goes back to the global ones on delete', async () => {
    const [a, b] = [newId('ten'), newId('ten')];
    await settings.put(a, SETTINGS);
    await settings.put(b, { ...SETTINGS, model: 'other-model', api_key: 'sk-other-0000' });
    expect((await settings.get(a))?.model).toBe('tenant-model');
    expect((await settings.get(b))?.api_key_last4).toBe('0000');

    expect(await settings.delete(a)).toBe(true);
    expect(await settings.get(a)).toBeNull();
    expect(await settings.tenantLlm(a)).toBeNull();
    expect((await settings.get(b))?.model).toBe('other-model');
  });

  it.each([
    ['base_url', { base_url: 'ftp://llm.example/v1' }],
    ['base_url', { base_url: 'not a url' }],
    ['api_key', { api_key: '' }],
    ['api_key', { api_key: 'k'.repeat(501) }],
    ['model', { model: '' }],
    ['model', { model: 'm'.repeat(201) }],
    ['monthly_budget', { monthly_budget: '-1' }],
    ['monthly_budget', { monthly_budget: 12.5 }],
    ['monthly_budget', { monthly_budget: '1e3' }],
  ])('refuses a bad %s with a problem naming it', async (field, change) => {
    const tenant = newId('ten');
    await expect(settings.put(tenant, { ...SETTINGS, ...change })).rejects.toMatchObject({ problem: { status: 400, errors: [expect.objectContaining({ field })] } });
    expect(await settings.get(tenant)).toBeNull();
  });

  it('answers the gateway over Kafka request-reply', async () => {
    const rpc = h.kafka.rpc;
    const tenant = newId('ten');
    const put = await rpc.request('llm-settings.put', { tenant_id: tenant, settings: SETTINGS });
    expect(put.api_key_last4).toBe('7f3a');
    expect(await rpc.request('llm-settings.get', { tenant_id: tenant })).toEqual(put);
    expect(await rpc.request('llm-settings.delete', { tenant_id: tenant })).toEqual({ deleted: true });
  });
});
