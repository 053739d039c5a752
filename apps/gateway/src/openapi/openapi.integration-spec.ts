import type { OpenAPIObject } from '@nestjs/swagger';
import type { PathItemObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { createParleyClient, isProblemDetails } from '@parley/api-client';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { registeredRoutes } from '../http/route-registry';
import { GatewayTestApp } from '../test/gateway-test-app';
import { DOCS_PATH, OPENAPI_JSON_PATH, UI_PATHS } from './openapi-document';

const ROOT = join(__dirname, '../../../..');
const CLIENT_TYPES_FILE = 'libs/api-client/src/generated/parley-api.ts';

/** Runs one of the ESM-only tools under tools/api (jest here is CommonJS) with the document on stdin. */
function runTool(script: string, document: OpenAPIObject): string {
  try {
    return execFileSync(process.execPath, [join(ROOT, 'tools/api', script)], { input: JSON.stringify(document), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Routes that serve the reference itself or a UI (not API operations). */
const NOT_OPERATIONS = [OPENAPI_JSON_PATH, DOCS_PATH, ...UI_PATHS];
const isOperation = (url: string) => !NOT_OPERATIONS.some((prefix) => url === prefix || url.startsWith(`${prefix}/`));
/** Tenant-prefixed routes anyone may call: sign-up, and accepting an invitation (the link's token is the credential). */
const PUBLIC_TENANT_PATHS = ['/api/v1/accounts', '/api/v1/team/accept'];

/** Fastify's `/api/v1/agents/:agent_name` → OpenAPI's `/api/v1/agents/{agent_name}`. */
const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\/+$/, '') || '/';

function documentedOperations(document: OpenAPIObject): string[] {
  return Object.entries(document.paths).flatMap(([path, item]: [string, PathItemObject]) =>
    METHODS.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

describe('gateway: OpenAPI document, reference page and typed client', () => {
  let gateway: GatewayTestApp;
  let document: OpenAPIObject;

  beforeAll(async () => {
    gateway = await GatewayTestApp.start('openapi');
    const answer = await gateway.request<OpenAPIObject>('GET', OPENAPI_JSON_PATH);
    expect(answer.status).toBe(200);
    document = answer.body;
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('is a valid OpenAPI 3 document under the standard validator', () => {
    expect(document.openapi).toMatch(/^3\./);
    const result = JSON.parse(runTool('validate-openapi.mjs', document)) as { valid: boolean; errors: unknown[] };
    expect(result).toEqual(expect.objectContaining({ valid: true, errors: [] }));
  });

  it('documents every route the server registers, and no route it does not serve', () => {
    const fastify = gateway.app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    const served = [
      ...new Set(
        registeredRoutes(fastify)
          .filter((route) => (METHODS as readonly string[]).includes(route.method.toLowerCase()) && isOperation(route.url))
          .map((route) => `${route.method.toUpperCase()} ${toOpenApiPath(route.url)}`),
      ),
    ].sort();
    expect(served.length).toBeGreaterThan(40);
    expect(documentedOperations(document).sort()).toEqual(served);
  });

  it('describes each operation: a success answer, problem+json errors, and security on tenant routes', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        const where = `${method.toUpperCase()} ${path}`;
        const statuses = Object.keys(operation.responses);
        expect({ where, success: statuses.some((s) => /^2\d\d$/.test(s)) }).toEqual({ where, success: true });
        if (/^\/(api\/)?v1\//.test(path) && !PUBLIC_TENANT_PATHS.includes(path)) {
          expect({ where, security: operation.security }).toEqual({ where, security: [{ oauth2: [] }, { apiKey: [] }, { memberSession: [] }] });
          expect({ where, has401: statuses.includes('401'), has429: statuses.includes('429') }).toEqual({ where, has401: true, has429: true });
          const unauthorized = operation.responses['401'] as { content: Record<string, unknown> };
          expect({ where, media: Object.keys(unauthorized.content) }).toEqual({ where, media: ['application/problem+json'] });
        }
        // Provider intake takes any body as raw bytes (CONTRACT.md §7: any validly signed body answers 200).
        if (operation.requestBody && !path.startsWith('/webhooks/')) expect({ where, has400: statuses.includes('400') }).toEqual({ where, has400: true });
      }
    }
    expect(Object.keys(document.paths['/webhooks/whatsapp'].post?.responses ?? {}).sort()).toEqual(['200', '401', '413', '429', '503']);
    expect(Object.keys(document.components?.securitySchemes ?? {}).sort()).toEqual(['adminToken', 'apiKey', 'clientBasic', 'memberSession', 'oauth2']);
    expect(document.paths['/oauth/token'].post?.requestBody).toEqual(
      expect.objectContaining({ content: expect.objectContaining({ 'application/x-www-form-urlencoded': expect.anything(), 'application/json': expect.anything() }) }),
    );
  });

  it('documents only the message statuses the system produces (CONTRACT.md §4: sent, delivered, read, failed; received inbound)', () => {
    const message = (document.components?.schemas as Record<string, { properties: Record<string, { enum?: string[] }> }>).Message;
    expect([...(message.properties.status.enum ?? [])].sort()).toEqual(['delivered', 'failed', 'read', 'received', 'sent']);
  });

  it('reads request schemas from the DTO rules (lengths, enums, required fields, no unknown fields)', () => {
    const schemas = document.components?.schemas as Record<string, Record<string, never>>;
    expect(schemas.SendMessageBody).toEqual(
      expect.objectContaining({
        required: ['channel', 'to'],
        additionalProperties: false,
        properties: expect.objectContaining({
          channel: { type: 'string', enum: ['whatsapp', 'sms', 'email'] },
          message: expect.objectContaining({ type: 'string', minLength: 1, maxLength: 4096 }),
          template: { $ref: '#/components/schemas/TemplateDto' },
        }),
      }),
    );
    expect(schemas.UpsertAgentBody.properties).toEqual(
      expect.objectContaining({
        skills: expect.objectContaining({ type: 'array', uniqueItems: true, items: { type: 'string', enum: ['faq_responder', 'lead_capture', 'appointment_booking'] } }),
        faqs: expect.objectContaining({ type: 'array', maxItems: 500, items: { $ref: '#/components/schemas/FaqDto' } }),
      }),
    );
    expect(schemas.UpdateChannelBody.properties).toEqual(expect.objectContaining({ agent: expect.objectContaining({ nullable: true }) }));
  });

  it('answers real requests with bodies that match the documented schemas', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    // Ajv understands OpenAPI 3.0's `nullable`; refs resolve against the document's components.
    ajv.addSchema({ $id: 'parley', components: { schemas: document.components?.schemas ?? {} } });
    const check = (schema: string, body: unknown) => {
      const validate = ajv.getSchema(`parley#/components/schemas/${schema}`)!;
      expect({ schema, valid: validate(body), errors: validate.errors ?? null }).toEqual({ schema, valid: true, errors: null });
    };

    const client = createParleyClient({ baseUrl: gateway.baseUrl });
    const account = await client.POST('/api/v1/accounts', { body: { name: 'Docs Bakery', email: 'docs@example.com' } });
    expect(account.response.status).toBe(201);
    check('CreatedAccount', account.data);

    const token = await client.POST('/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: account.data!.client_id, client_secret: account.data!.client_secret },
    });
    expect(token.response.status).toBe(200);
    check('AccessToken', token.data);

    const tenant = createParleyClient({ baseUrl: gateway.baseUrl, token: token.data!.access_token });
    const key = await tenant.POST('/api/v1/api-keys', { body: { name: 'ci' } });
    expect(key.response.status).toBe(201);
    check('CreatedApiKey', key.data);
    const keys = await tenant.GET('/api/v1/api-keys', { params: { query: { limit: 10 } } });
    check('ApiKeyPage', keys.data);
    const usage = await tenant.GET('/api/v1/usage');
    check('Usage', usage.data);
    expect(usage.response.headers.get('ratelimit')).toMatch(/^"daily";r=\d+;t=\d+$/);

    const roles = await tenant.GET('/api/v1/team/roles');
    check('TeamRoles', roles.data);
    const badClient = await client.POST('/oauth/token', { body: { grant_type: 'client_credentials', client_id: account.data!.client_id, client_secret: 'not-the-secret' } });
    expect(badClient.response.status).toBe(401);
    check('OAuthError', badClient.error);

    const refused = await createParleyClient({ baseUrl: gateway.baseUrl, token: 'parley_sk_not-a-key' }).GET('/api/v1/usage');
    expect(refused.response.status).toBe(401);
    expect(isProblemDetails(refused.error)).toBe(true);
    check('ProblemDetails', refused.error);
  });

  it('serves the reference page at /docs', async () => {
    const page = await gateway.request<string>('GET', DOCS_PATH);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('swagger-ui');
    const init = await gateway.request<string>('GET', `${DOCS_PATH}/swagger-ui-init.js`);
    expect(init.status).toBe(200);
    expect(init.body).toContain('/api/v1/agents/{agent_name}');
  });

  it('serves /metrics on the public port in development only; in production on its internal port, left out of the document (CONTRACT.md §8)', async () => {
    expect(gateway.metricsPort).toBeNull();
    const local = await gateway.request<string>('GET', '/metrics');
    expect(local.status).toBe(200);
    expect(local.headers.get('content-type')).toContain('text/plain');
    expect(local.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(document.paths['/metrics']?.get?.summary).toBe('Prometheus metrics');

    const production = await gateway.sibling({ NODE_ENV: 'production', ADMIN_TOKEN: 'test-admin-token-for-production' });
    const internalUrl = `http://127.0.0.1:${production.metricsPort}`;
    try {
      expect(production.metricsPort).toEqual(expect.any(Number));
      const hidden = await production.request('GET', '/metrics');
      expect(hidden.status).toBe(404);
      expect(hidden.body.type).toBe('https://parley.dev/problems/not-found');
      const published = await production.request<OpenAPIObject>('GET', OPENAPI_JSON_PATH);
      expect(Object.keys(published.body.paths)).toContain('/health');
      expect(Object.keys(published.body.paths)).not.toContain('/metrics');

      const internal = await fetch(`${internalUrl}/metrics`);
      expect(internal.status).toBe(200);
      expect(internal.headers.get('content-type')).toContain('text/plain');
      expect(await internal.text()).toContain('# TYPE process_cpu_seconds_total counter');
      // The internal port serves the metrics and nothing else.
      expect((await fetch(`${internalUrl}/health`)).status).toBe(404);
      expect((await fetch(`${internalUrl}/api/v1/usage`)).status).toBe(404);
    } finally {
      await production.close();
    }
    // It closes with the app.
    await expect(fetch(`${internalUrl}/metrics`)).rejects.toThrow();
  });

  it('keeps the checked-in client types equal to what the current code generates (else run `npm run api:generate`)', () => {
    const checkedIn = readFileSync(join(ROOT, CLIENT_TYPES_FILE), 'utf8');
    expect(checkedIn).toBe(runTool('client-types.mjs', document));
  });
});
