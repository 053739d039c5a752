import type { LlmSettingsService, TenantLlm } from './llm-settings.service';
import { TENANT_LLM_TTL_MS, TenantLlms } from './tenant-llms';

const LLM: TenantLlm = { baseUrl: 'http://llm.example/v1', apiKey: 'sk-1', model: 'm', monthlyBudget: '5.000000' };

/** Settings as another instance may change them: what the store holds now, and how often it was read. */
function store() {
  const state = { llm: LLM as TenantLlm | null, over: false, reads: 0, fail: false };
  const settings = {
    tenantLlm: () => {
      state.reads++;
      return state.fail ? Promise.reject(new Error('database down')) : Promise.resolve(state.llm);
    },
    overBudget: () => Promise.resolve(state.over),
  } as unknown as LlmSettingsService;
  return { state, choices: new TenantLlms(settings) };
}

describe('TenantLlms', () => {
  const t0 = new Date('2026-11-29T10:00:00Z');
  const later = (ms: number) => new Date(t0.getTime() + ms);

  it('reads a tenant at most once per TTL, then sees what changed elsewhere', async () => {
    const { state, choices } = store();
    expect(await choices.choose('ten_a', t0)).toEqual({ kind: 'own', llm: LLM });
    state.over = true;
    expect(await choices.choose('ten_a', later(TENANT_LLM_TTL_MS - 1))).toEqual({ kind: 'own', llm: LLM });
    expect(state.reads).toBe(1);
    expect(await choices.choose('ten_a', later(TENANT_LLM_TTL_MS))).toEqual({ kind: 'over_budget' });
    state.llm = null;
    expect(await choices.choose('ten_a', later(2 * TENANT_LLM_TTL_MS))).toEqual({ kind: 'global' });
    expect(state.reads).toBe(3);
  });

  it('reads again at once after forget (this instance changed the settings or heard a new spend)', async () => {
    const { state, choices } = store();
    await choices.choose('ten_a', t0);
    state.over = true;
    choices.forget('ten_a');
    expect(await choices.choose('ten_a', t0)).toEqual({ kind: 'over_budget' });
    expect(state.reads).toBe(2);
  });

  it('does not remember a failed read', async () => {
    const { state, choices } = store();
    state.fail = true;
    await expect(choices.choose('ten_a', t0)).rejects.toThrow('database down');
    state.fail = false;
    expect(await choices.choose('ten_a', t0)).toEqual({ kind: 'own', llm: LLM });
    expect(state.reads).toBe(2);
  });
});
