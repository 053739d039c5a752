import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { e2eLanes, sharesStack } from './e2e-lanes.cjs';

const ROOT = resolve(__dirname, '../../..');

describe("npm test's end-to-end lanes", () => {
  it('puts every end-to-end file in exactly one lane: those asking for the shared stack, and those starting their own', () => {
    const lanes = e2eLanes(ROOT);
    expect(lanes.map((lane) => lane.label)).toEqual(['shared stack', 'own stacks']);
    const all = readdirSync(join(ROOT, 'apps/platform-e2e/src')).filter((name) => name.endsWith('.e2e-spec.ts'));
    expect(lanes.flatMap((lane) => lane.paths).sort()).toEqual(all.map((name) => `apps/platform-e2e/src/${name}`).sort());
    const [shared, own] = lanes;
    for (const file of shared.paths) expect({ file, shares: sharesStack(readFileSync(join(ROOT, file), 'utf8')) }).toEqual({ file, shares: true });
    for (const file of own.paths) expect({ file, shares: sharesStack(readFileSync(join(ROOT, file), 'utf8')) }).toEqual({ file, shares: false });
    // the files that kill or configure services are the ones on stacks of their own
    expect(own.paths).toEqual(expect.arrayContaining(['apps/platform-e2e/src/chaos.e2e-spec.ts', 'apps/platform-e2e/src/campaigns.e2e-spec.ts']));
    expect(shared.paths).toContain('apps/platform-e2e/src/docs.e2e-spec.ts');
  });

  it('tells a file that asks for the shared stack by its call', () => {
    expect(sharesStack("const platform = await sharedPlatform();")).toBe(true);
    expect(sharesStack("platform = await startPlatform({ SANDBOX_TEMPLATE_REVIEW_MS: '6000' });")).toBe(false);
  });
});
