import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { HeadersObject, ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { ApiResponseName, ApiResponses } from '@parley/contracts';
import { dtoProperties, schemaRef, type DtoClass, type Schema } from './dto-schema';
import { API_ROUTE_DOCUMENTED } from './route-scan';

/** Who may call a route; decides its security requirement and the errors every such route can answer. */
export type RouteAccess = 'tenant' | 'public' | 'admin' | 'oauth-client' | 'provider';

export const SECURITY = { oauth2: 'oauth2', apiKey: 'apiKey', memberSession: 'memberSession', clientBasic: 'clientBasic', adminToken: 'adminToken' } as const;

export interface ApiRouteOptions<S extends SuccessSchema = SuccessSchema> {
  summary: string;
  description?: string;
  access: RouteAccess;
  /** A class-validator DTO (its schema is read from its rules) or an explicit schema with its media types. */
  body?: DtoClass | { schema: Schema; contentTypes: string[]; description?: string };
  /** A list-query DTO: each of its fields becomes a query parameter. */
  query?: DtoClass;
  /** Request headers beyond `Authorization`. */
  headers?: { name: string; description: string }[];
  /**
   * The success answer: the name of its type in `ApiResponses` (@parley/contracts), which the route's method must then
   * return; or an explicit schema (a file, text); or none (e.g. 204).
   */
  success: {
    status: number;
    description: string;
    schema?: S;
    contentType?: string;
    headers?: HeadersObject;
    /** Other success statuses with the same body (e.g. 201 of a PUT that created). */
    also?: { status: number; description: string }[];
  };
  /** Statuses this route answers besides the ones its access and inputs imply (e.g. 404, 409, 503). */
  errors?: number[];
}

/** A success answer's schema: an answer of `ApiResponses` by name, or an explicit schema. */
type SuccessSchema = ApiResponseName | Schema | undefined;

/**
 * What a route documented with `schema` returns: the type `ApiResponses` names, or a file it sends as another media
 * type instead (an invoice's PDF); anything for an explicit schema.
 */
type RouteMethod<S extends SuccessSchema> = (...args: never[]) => S extends ApiResponseName ? Answer<ApiResponses[S]> | Promise<Answer<ApiResponses[S]>> : unknown;
type Answer<T> = T | Buffer;

/** DTOs used as bodies, collected for the document's components (see `openapi-document.ts`). */
export const DOCUMENTED_BODIES = new Map<DtoClass, { tenantScoped: boolean }>();

const ERROR_TEXT: Record<number, string> = {
  400: 'A field, parameter or the JSON itself is not valid (`errors[]` names each field and rule).',
  401: 'Missing, malformed, expired, wrongly signed or revoked credential (`WWW-Authenticate: Bearer`).',
  402: 'A paid send the wallet’s balance cannot cover (`insufficient-funds`, CONTRACT.md §16); nothing was sent.',
  403: 'The body `tenant_id` is not the caller’s tenant, the signed-in team member’s role may not do this, or a session-cookie request lacks its `X-CSRF-Token`.',
  404: 'No such resource for this tenant.',
  409: 'Conflict with the current state (e.g. an `Idempotency-Key` reused with another body).',
  413: 'The body is larger than 1 MiB.',
  415: 'The body is not `application/json`.',
  429: 'Over the daily quota or the per-address limit; wait `Retry-After` seconds.',
  503: 'A dependency (Kafka, an owning service) cannot take the request now; retry after `Retry-After` seconds.',
};

export const RATE_LIMIT_HEADERS: HeadersObject = {
  RateLimit: {
    description: 'Remaining daily quota: `"daily";r=<remaining>;t=<seconds to reset>` (`r=999999999999999` on an unlimited plan).',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': { description: 'The daily quota policy, e.g. `"daily";q=500;w=86400` (absent on an unlimited plan).', schema: { type: 'string' } },
};
const RETRY_AFTER: HeadersObject = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } };

/**
 * Documents one route for `/openapi.json`: summary, security, body, query, success answer and every problem+json
 * answer it can give. Inputs are described from the same class-validator DTOs the validation pipe enforces; a success
 * answer named from `ApiResponses` must be what the method returns (a type error otherwise), so the document describes
 * the very type the route answers.
 */
export function ApiRoute<S extends SuccessSchema = undefined>(
  options: ApiRouteOptions<S>,
): <M extends RouteMethod<S>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void {
  const decorators: MethodDecorator[] = [SetMetadata(API_ROUTE_DOCUMENTED, true), ApiOperation({ summary: options.summary, description: options.description })];
  for (const requirement of securityOf(options.access)) decorators.push(ApiSecurity(requirement));
  for (const header of options.headers ?? []) decorators.push(ApiHeader({ name: header.name, description: header.description, required: false }));
  if (options.query) {
    for (const param of dtoProperties(options.query)) decorators.push(ApiQuery({ name: param.name, required: param.required, schema: param.schema as SchemaObject }));
  }
  if (options.body) decorators.push(bodyDecorator(options.body, options.access === 'tenant'));

  const success = options.success;
  const tenant = options.access === 'tenant';
  const successHeaders = { ...(tenant ? RATE_LIMIT_HEADERS : {}), ...success.headers };
  const schema: Schema | undefined = typeof success.schema === 'string' ? schemaRef(success.schema) : success.schema;
  for (const { status, description } of [success, ...(success.also ?? [])]) {
    decorators.push(
      ApiResponse({
        status,
        description,
        ...(Object.keys(successHeaders).length ? { headers: successHeaders } : {}),
        ...(schema ? { content: { [success.contentType ?? 'application/json']: { schema } } } : {}),
      }),
    );
  }
  for (const status of errorStatuses(options.access, options)) decorators.push(ApiResponse({ status, ...errorResponse(status, options.access) }));
  const decorate = applyDecorators(...decorators);
  return (target, key, descriptor) => decorate(target, key, descriptor);
}

/** The security requirements (alternatives) of a route, by who may call it. */
export function securityOf(access: RouteAccess): Record<string, string[]>[] {
  switch (access) {
    case 'tenant':
      return [{ [SECURITY.oauth2]: [] }, { [SECURITY.apiKey]: [] }, { [SECURITY.memberSession]: [] }];
    case 'admin':
      return [{ [SECURITY.adminToken]: [] }];
    case 'oauth-client':
      return [{ [SECURITY.clientBasic]: [] }, {}];
    case 'public':
    case 'provider':
      return [];
  }
}

function bodyDecorator(body: NonNullable<ApiRouteOptions['body']>, tenantScoped: boolean): MethodDecorator {
  if (typeof body === 'function') {
    DOCUMENTED_BODIES.set(body, { tenantScoped: tenantScoped || (DOCUMENTED_BODIES.get(body)?.tenantScoped ?? false) });
    return ApiBody({ required: true, schema: schemaRef(body.name) as SchemaObject });
  }
  // Nest's ApiBody takes one schema; the media types are spread over `content` when the document is built.
  return ApiBody({ required: true, description: body.description, schema: { ...(body.schema as SchemaObject), 'x-content-types': body.contentTypes } as SchemaObject });
}

/** Every error status a route can answer: its own, and those its access and inputs imply. */
export function errorStatuses(access: RouteAccess, inputs: { body?: unknown; query?: unknown; errors?: number[] }): number[] {
  const statuses = new Set(inputs.errors ?? []);
  // Provider intake takes its body as raw bytes in any content type (fastify-setup.ts): only its size is refused.
  const parsedBody = inputs.body && access !== 'provider';
  if (parsedBody || inputs.query) statuses.add(400);
  if (inputs.body) statuses.add(413);
  if (parsedBody) statuses.add(415);
  if (access === 'tenant') [401, 429].forEach((s) => statuses.add(s));
  if (access === 'tenant' && inputs.body) statuses.add(403);
  if (access === 'admin') statuses.add(401);
  return [...statuses].sort();
}

/** A problem+json answer (the OAuth error shape at the token route), with the headers that status carries. */
export function errorResponse(status: number, access: RouteAccess): ResponseObject {
  const oauth = access === 'oauth-client';
  const headers = status === 429 || status === 503 ? RETRY_AFTER : status === 401 && !oauth ? { 'WWW-Authenticate': { schema: { type: 'string' } } } : undefined;
  return {
    description: ERROR_TEXT[status] ?? 'Error.',
    ...(headers ? { headers } : {}),
    content: oauth ? { 'application/json': { schema: schemaRef('OAuthError') } } : { 'application/problem+json': { schema: schemaRef('ProblemDetails') } },
  };
}
