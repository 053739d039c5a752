import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { METRICS_PATH } from '@parley/service-kit';
import type { OperationObject, PathItemObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { GatewayConfig } from '../config/gateway.config';
import { DOCUMENTED_BODIES, RATE_LIMIT_HEADERS, SECURITY, errorResponse, errorStatuses, securityOf } from './api-route.decorator';
import { dtoProperties, dtoSchemas, schemaRef } from './dto-schema';
import { RESPONSE_SCHEMAS } from './response-schemas';
import { scanRoutes, type ScannedRoute } from './route-scan';

export const OPENAPI_JSON_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';
/** Pages for people (the dashboard, its icon, the docs site), not API operations: left out of the document. */
export const UI_PATHS = ['/dashboard', '/guide', '/favicon.ico', '/favicon.svg'];

const TENANT_PATH = /^\/(api\/)?v1\//;

const DESCRIPTION = [
  'The public API of Parley: conversational AI agents on WhatsApp.',
  '',
  'Authenticate tenant routes with `Authorization: Bearer <token>`, where the token is an access token from',
  '`POST /oauth/token` (OAuth2 client credentials) or an API key (`parley_sk_…`); team members sign in to the dashboard',
  'with `POST /auth/login` (a session cookie, or the access token it answers). Errors are RFC 9457',
  '`application/problem+json` with a stable `type` URI, except `/oauth/token`, which answers RFC 6749 OAuth errors.',
  'Every authenticated answer carries the IETF `RateLimit` header of the tenant’s daily quota.',
].join('\n');

/** Operational routes of service-kit (its HealthController, without swagger decorators, and /metrics): documented here. */
const OPERATIONAL: Record<string, { summary: string; schema?: string; contentType: string; unavailable?: boolean }> = {
  '/health': { summary: 'Liveness', schema: 'Health', contentType: 'application/json' },
  '/health/ready': { summary: 'Readiness: database, Kafka and Redis reachable', schema: 'Readiness', contentType: 'application/json', unavailable: true },
  [METRICS_PATH]: { summary: 'Prometheus metrics', contentType: 'text/plain' },
};

/**
 * The OpenAPI 3 document of every route the gateway serves, generated from the controllers (`@nestjs/swagger` and
 * the `@ApiRoute` declarations) and the class-validator DTOs, so it cannot describe a route or rule that is not there.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Parley API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addOAuth2(
      {
        type: 'oauth2',
        description: 'OAuth2 client credentials (RFC 6749 §4.4): the access token is a short-lived JWT carrying the tenant.',
        flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } },
      },
      SECURITY.oauth2,
    )
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'parley_sk_…', description: 'An API key as the bearer token.' }, SECURITY.apiKey)
    .addCookieAuth(
      'parley_session',
      {
        type: 'apiKey',
        in: 'cookie',
        description: 'A team member’s dashboard session (`POST /auth/login`); `POST`/`PUT`/`PATCH`/`DELETE` also need `X-CSRF-Token` (the `parley_csrf` cookie).',
      },
      SECURITY.memberSession,
    )
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'HTTP Basic client authentication (`client_id:client_secret`) at the token route.' }, SECURITY.clientBasic)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The operator token (`ADMIN_TOKEN`).' }, SECURITY.adminToken)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controllerKey, methodKey) => `${controllerKey.replace(/Controller$/, '')}_${methodKey}`,
  });

  for (const path of Object.keys(document.paths)) {
    if (UI_PATHS.some((ui) => path === ui || path.startsWith(`${ui}/`))) delete document.paths[path];
  }
  // service-kit serves /metrics itself (no controller), on the public port only outside production (CONTRACT.md §8).
  if (app.get(GatewayConfig).metricsPort === null) document.paths[METRICS_PATH] = { get: { operationId: 'Health_metrics', parameters: [], responses: {} } };
  // The DTOs' own schemas replace the empty ones Nest's explorer makes of classes without @ApiProperty.
  const dtos: Record<string, SchemaObject> = {};
  const tenantBodies = new Set([...DOCUMENTED_BODIES].filter(([, { tenantScoped }]) => tenantScoped).map(([dto]) => dto));
  for (const dto of DOCUMENTED_BODIES.keys()) dtoSchemas(dto, dtos);
  for (const route of scanRoutes(app)) {
    const operation = document.paths[route.path]?.[route.method as 'get'];
    if (!operation || route.documented) continue;
    describeFromCode(operation, route, dtos);
    if (route.body && isTenantRoute(route)) tenantBodies.add(route.body);
  }
  const schemas = { ...document.components?.schemas, ...RESPONSE_SCHEMAS, ...dtos } as Record<string, SchemaObject>;
  // A tenant route's body may always carry the caller's own tenant_id (CONTRACT.md §1); another one answers 403.
  for (const dto of tenantBodies) {
    const body = schemas[dto.name];
    if (!body.properties?.tenant_id) body.properties = { ...body.properties, tenant_id: { type: 'string', description: 'The caller’s own tenant id (optional).' } };
  }
  document.components = { ...document.components, schemas: sortKeys(schemas) };

  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of operations(item)) {
      spreadBodyContentTypes(operation);
      operation.tags = [tagOf(path)];
    }
    const operational = OPERATIONAL[path];
    if (operational && item.get) describeOperational(item.get, operational);
  }
  document.paths = sortKeys(document.paths);
  return document;
}

/** Serves the document at `/openapi.json` and the reference page at `/docs`. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Parley API reference',
  });
}

const isTenantRoute = (route: ScannedRoute) => TENANT_PATH.test(route.path) && !route.isPublic;

/**
 * A route without `@ApiRoute` still gets what its code says: its body and query DTOs (class-validator rules), the
 * tenant security of its prefix, and the problem answers those imply. Only its success body stays undescribed.
 */
function describeFromCode(operation: OperationObject, route: ScannedRoute, schemas: Record<string, SchemaObject>): void {
  const access = isTenantRoute(route) ? 'tenant' : 'public';
  if (route.body) {
    dtoSchemas(route.body, schemas);
    operation.requestBody = { required: true, content: { 'application/json': { schema: schemaRef(route.body.name) } } };
  }
  if (route.query) {
    const others = (operation.parameters ?? []).filter((p) => !('in' in p) || p.in !== 'query');
    operation.parameters = [...others, ...dtoProperties(route.query).map((p) => ({ name: p.name, in: 'query' as const, required: p.required, schema: p.schema }))];
  }
  const security = securityOf(access);
  if (security.length) operation.security = security;
  if (access === 'tenant') {
    for (const response of Object.values(operation.responses)) if (response && 'description' in response) response.headers = { ...RATE_LIMIT_HEADERS, ...response.headers };
  }
  for (const status of errorStatuses(access, route)) operation.responses[String(status)] ??= errorResponse(status, access);
}

function operations(item: PathItemObject): OperationObject[] {
  return (['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const).map((m) => item[m]).filter((o): o is OperationObject => o !== undefined);
}

/** `/api/v1/agents/{agent_name}` → `agents`; `/webhooks/whatsapp` → `provider-webhooks`. */
function tagOf(path: string): string {
  if (path.startsWith('/webhooks/')) return 'provider-webhooks';
  if (path.startsWith('/admin/')) return 'admin';
  if (path.startsWith('/oauth/') || path === '/api/v1/accounts') return 'accounts';
  if (path.startsWith('/auth/')) return 'team';
  if (path === '/v1/send') return 'messages';
  if (path in OPERATIONAL) return 'operations';
  return path.replace(/^\/(api\/)?v1\//, '').split('/')[0];
}

/** `@ApiRoute` bodies with several media types (the token route's form or JSON) carry them in `x-content-types`. */
function spreadBodyContentTypes(operation: OperationObject): void {
  const body = operation.requestBody;
  if (!body || !('content' in body)) return;
  for (const media of Object.values(body.content)) {
    const schema = media.schema as (SchemaObject & { 'x-content-types'?: string[] }) | undefined;
    const types = schema?.['x-content-types'];
    if (!schema || !types) continue;
    const { 'x-content-types': _, ...clean } = schema;
    body.content = Object.fromEntries(types.map((type) => [type, { schema: clean }]));
    return;
  }
}

function describeOperational(operation: OperationObject, spec: (typeof OPERATIONAL)[string]): void {
  operation.summary = spec.summary;
  const ok = { description: spec.summary, content: { [spec.contentType]: { schema: spec.schema ? schemaRef(spec.schema) : { type: 'string' } } } };
  operation.responses = { '200': ok, ...(spec.unavailable ? { '503': { ...ok, description: 'Not ready: a dependency is unreachable.' } } : {}) };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
