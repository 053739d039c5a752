import { ProblemTypes, problem } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestAuthentication } from '../auth/request-authentication';
import { DOCUMENT_UPLOAD_ROUTE, registerDocumentUploads } from '../agents/document-uploads';
import { CONTACT_IMPORT_ROUTE, registerCsvBodies } from '../crm/contact-imports';
import { MEDIA_UPLOAD_ROUTE } from '../media/media-uploads';
import { OAuthError, sendOAuthError } from '../oauth/oauth.errors';
import { rejectWrongMethods } from './method-not-allowed';
import { recordRoutes } from './route-registry';

export const TOKEN_ROUTE = '/oauth/token';
/**
 * Provider notifications (CONTRACT.md §7): taken as raw bytes in any content type, never parsed here, so a validly
 * signed body is acknowledged whatever it holds (the consumer dead-letters what it cannot understand).
 */
export const PROVIDER_INTAKE_PREFIX = '/webhooks/';

type ContentTypeRule = (mime: string) => boolean;

const JSON_ONLY: ContentTypeRule = (mime) => mime === 'application/json';
/** The token endpoint takes form bodies (RFC 6749 §4.4.2) as well as JSON. */
const FORM_OR_JSON: ContentTypeRule = (mime) => mime === 'application/json' || mime === 'application/x-www-form-urlencoded';
/** A document upload (CONTRACT.md §11) takes a file as multipart/form-data as well as JSON. */
const JSON_OR_MULTIPART: ContentTypeRule = (mime) => mime === 'application/json' || mime === 'multipart/form-data';
/** A media upload (CONTRACT.md §13) is a file only. */
const MULTIPART_ONLY: ContentTypeRule = (mime) => mime === 'multipart/form-data';
/** A contact import (CONTRACT.md §14) is a CSV: the body itself, or a file part. */
const CSV_OR_MULTIPART: ContentTypeRule = (mime) => mime === 'text/csv' || mime === 'multipart/form-data';

/**
 * Gateway-specific Fastify set-up, run before Nest registers its routes:
 * - form bodies need no plugin: Nest's Fastify adapter already parses application/x-www-form-urlencoded (registering
 *   @fastify/formbody as well fails at start-up with "parser already present"); this hook limits them to the token route;
 * - a body in any other content type than JSON is refused with 415 before it is read (CONTRACT.md §1), except at
 *   provider intake, which takes any body as it came;
 * - errors of the token endpoint that happen before Nest sees the request (body parsing) keep the OAuth shape;
 * - the routes are recorded, so the API reference can be checked against what is really served, and a known path
 *   called with a method it does not serve answers 405 rather than 404;
 * - tenant requests are authenticated and counted when they arrive, before all of that (RequestAuthentication).
 */
export function configureGatewayFastify(fastify: FastifyInstance, authentication: () => RequestAuthentication): void {
  recordRoutes(fastify);
  registerDocumentUploads(fastify);
  registerCsvBodies(fastify);
  // First of the request hooks, so whatever answer comes next (405, 415, 400, 413, 404) is counted and labelled; its
  // 401 and 429 come before the body is read, after Nest's request logging (an onRequest hook of its own) saw the request.
  fastify.addHook('onRequest', (request, reply) => authentication().onRequest(request, reply));
  fastify.addHook('preParsing', async (request) => authentication().refuse(request));
  rejectWrongMethods(fastify);
  fastify.addHook('onRequest', async (request, reply) => {
    if (!hasBody(request) || request.routeOptions.url?.startsWith(PROVIDER_INTAKE_PREFIX)) return;
    const isTokenRoute = request.routeOptions.url === TOKEN_ROUTE;
    const mime = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const isUploadRoute = request.routeOptions.url === DOCUMENT_UPLOAD_ROUTE && request.method === 'POST';
    const isMediaRoute = request.routeOptions.url === MEDIA_UPLOAD_ROUTE && request.method === 'POST';
    const isImportRoute = request.routeOptions.url === CONTACT_IMPORT_ROUTE && request.method === 'POST';
    if ((isTokenRoute ? FORM_OR_JSON : isUploadRoute ? JSON_OR_MULTIPART : isMediaRoute ? MULTIPART_ONLY : isImportRoute ? CSV_OR_MULTIPART : JSON_ONLY)(mime)) return;
    if (isTokenRoute) {
      return sendOAuthError(reply, new OAuthError('invalid_request', 'Send the body as application/x-www-form-urlencoded or application/json.', undefined, 415));
    }
    const accepted = isUploadRoute ? 'application/json or multipart/form-data' : isMediaRoute ? 'multipart/form-data' : isImportRoute ? 'text/csv or multipart/form-data' : 'application/json';
    throw new ProblemException(problem(415, ProblemTypes.unsupportedMediaType, 'Unsupported Media Type', `Send the body as ${accepted}.`));
  });

  fastify.addHook('onRoute', (route) => {
    if (route.url !== TOKEN_ROUTE) return;
    route.errorHandler = (error: Error & { statusCode?: number }, _request: FastifyRequest, reply: FastifyReply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
      sendOAuthError(reply, new OAuthError('invalid_request', status === 413 ? 'The request body is too large.' : 'The request body could not be parsed.', undefined, status));
    };
  });
}

/** Whether the request carries a body (a declared non-zero length, or a chunked one). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}
