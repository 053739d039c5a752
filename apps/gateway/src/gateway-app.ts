import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@parley/service-kit';
import { DOCUMENT_UPLOAD_ROUTE, registerDocumentUploads } from './agents/document-uploads';
import { gatewayModule } from './app.module';
import type { GatewayConfig } from './config/gateway.config';
import { CONTACT_IMPORT_MAX_BYTES, CONTACT_IMPORT_ROUTE, registerCsvBodies } from './crm/contact-imports';
import { PLAYGROUND_INBOUND_MAX_BYTES, PLAYGROUND_INBOUND_ROUTE } from './dashboard/playground.dto';
import { PROVIDER_INTAKE_PREFIX, configureGatewayFastify, type RouteBodyTypes } from './http/fastify-setup';
import { RequestAuthentication } from './identity/auth/request-authentication';
import { TOKEN_BODY_TYPES, keepTokenErrorsInOAuthShape } from './identity/oauth/token-route';
import { MEDIA_UPLOAD_ROUTE } from './media/media-uploads';
import { setupOpenApi } from './openapi/openapi-document';

/** Provider intake takes larger bodies than the API's 1 MiB (CONTRACT.md §1). */
export const PROVIDER_BODY_LIMIT = 10 * 1024 * 1024;

/** The routes that take bodies other than JSON (CONTRACT.md §1); any other route refuses them with 415. */
const BODY_TYPES: readonly RouteBodyTypes[] = [
  TOKEN_BODY_TYPES,
  // A document upload (CONTRACT.md §11) takes a file as multipart/form-data as well as JSON.
  { url: DOCUMENT_UPLOAD_ROUTE, method: 'POST', types: ['application/json', 'multipart/form-data'] },
  // A media upload (CONTRACT.md §13) is a file only.
  { url: MEDIA_UPLOAD_ROUTE, method: 'POST', types: ['multipart/form-data'] },
  // A contact import (CONTRACT.md §14) is a CSV: the body itself, or a file part.
  { url: CONTACT_IMPORT_ROUTE, method: 'POST', types: ['text/csv', 'multipart/form-data'] },
];

/** The gateway app as `main.ts` and the tests create it: raw bodies kept for signature checks, raw only at provider intake. */
export async function createGatewayApp(config: GatewayConfig): Promise<NestFastifyApplication> {
  // The request hooks are installed before Nest exists; the authentication they call is Nest's, looked up at the first request.
  let authentication: RequestAuthentication | undefined;
  const app: NestFastifyApplication = await createServiceApp(gatewayModule(config), {
    rawBody: true,
    bodyLimits: [
      { prefix: PROVIDER_INTAKE_PREFIX, bytes: PROVIDER_BODY_LIMIT },
      { prefix: CONTACT_IMPORT_ROUTE, bytes: CONTACT_IMPORT_MAX_BYTES },
      // The playground's customer may attach a photo (≤ 5 MiB, as base64 in JSON).
      { prefix: PLAYGROUND_INBOUND_ROUTE, bytes: PLAYGROUND_INBOUND_MAX_BYTES },
    ],
    rawBodyPrefixes: [PROVIDER_INTAKE_PREFIX],
    trustProxy: config.trustProxy,
    // The features' parsers and hooks are handed to the HTTP set-up here, so http/ imports none of them.
    configureFastify: (fastify) =>
      configureGatewayFastify(fastify, {
        plugins: [registerDocumentUploads, registerCsvBodies, keepTokenErrorsInOAuthShape],
        arrival: () => (authentication ??= app.get<RequestAuthentication>(RequestAuthentication)),
        bodyTypes: BODY_TYPES,
      }),
  });
  // GET /openapi.json and GET /docs (CONTRACT.md §8).
  setupOpenApi(app);
  return app;
}
