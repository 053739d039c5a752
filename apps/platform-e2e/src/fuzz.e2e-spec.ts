import { join } from 'node:path';
// The fuzz case generators and oracle are the workspace tool behind `npm run fuzz` (tools/fuzz, plain CommonJS): the
// short run here uses exactly the cases and judgement of the full one.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { caseBatches, routesFromOpenApi } from '../../../tools/fuzz/lib/cases.cjs';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { createTenant, credentialsOf, curl, distinctFailures, readiness, runCases, scanLogs, secretsOf } from '../../../tools/fuzz/lib/fuzz.cjs';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { APPS, ROOT, readEnvFile } from '../../../tools/dev/lib/stack.cjs';
import { sharedPlatform, type Platform } from './support/platform';

/** A short, fixed-seed version of `npm run fuzz` (issue 9); the full run is 50,000 cases with a fresh seed. */
const CASES = 2000;
const SEED = 20261122;

describe('fuzzing every public route and the signed provider webhook (short run of npm run fuzz)', () => {
  let platform: Platform;
  const env = readEnvFile(join(ROOT, '.env.example'));

  beforeAll(async () => {
    platform = await sharedPlatform();
  }, 180_000);

  afterAll(async () => {
    await platform?.stop();
  }, 60_000);

  it(`answers ${CASES} fuzzed requests without a 5xx, every error problem+json, no secret in answers or logs, every service ready`, async () => {
    const tenants = [await createTenant(platform.gateway, env.ADMIN_TOKEN, 'Fuzz One'), await createTenant(platform.gateway, env.ADMIN_TOKEN, 'Fuzz Two')];
    const secrets = secretsOf(tenants);
    const doc: unknown = await (await fetch(`${platform.gateway}/openapi.json`)).json();
    const routes = routesFromOpenApi(doc).filter((r) => !r.streaming);
    expect(routes.length).toBeGreaterThan(30);

    const tally = await runCases(
      platform.gateway,
      caseBatches({
        doc,
        routes,
        credentials: credentialsOf(tenants, env.ADMIN_TOKEN),
        knownIds: tenants.flatMap((t) => t.ids),
        appSecret: env.META_APP_SECRET,
        phoneNumberIds: tenants.flatMap((t) => t.phoneNumberIds),
        count: CASES,
        seed: SEED,
      }),
      { concurrency: 16, forbidden: secrets.filter((s) => !s.name.endsWith('webhook_secret')) },
    );

    expect(tally.total).toBe(CASES);
    const failures = distinctFailures(tally.failures).map((f) => `${f.case.route}: ${f.problem} (${f.count}×) — ${curl(platform.gateway, f.case).slice(0, 400)} → ${f.status} ${f.body.slice(0, 200)}`);
    expect(failures).toEqual([]);
    expect(await readiness(platform.urls)).toEqual(Object.fromEntries(APPS.map((app) => [app, 200])));
    expect(scanLogs(APPS.map((app) => join(ROOT, 'tmp', 'logs', 'e2e', 'shared', `${app}.log`)), secrets)).toEqual([]);
  }, 120_000);
});
