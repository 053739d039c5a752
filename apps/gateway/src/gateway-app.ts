import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceApp } from '@parley/service-kit';
import { gatewayModule } from './app.module';
import { RequestAuthentication } from './auth/request-authentication';
import type { GatewayConfig } from './config/gateway.config';
import { CONTACT_IMPORT_MAX_BYTES, CONTACT_IMPORT_ROUTE } from './crm/contact-imports';
import { PLAYGROUND_INBOUND_MAX_BYTES, PLAYGROUND_INBOUND_ROUTE } from './dashboard/playground.dto';
import { PROVIDER_INTAKE_PREFIX, configureGatewayFastify } from './http/fastify-setup';
import { setupOpenApi } from './openapi/openapi-document';

/** Provider intake takes larger bodies than the API's 1 MiB (CONTRACT.md §1). */
export const PROVIDER_BODY_LIMIT = 10 * 1024 * 1024;

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
    configureFastify: (fastify) => configureGatewayFastify(fastify, () => (authentication ??= app.get<RequestAuthentication>(RequestAuthentication))),
  });
  // GET /openapi.json and GET /docs (CONTRACT.md §8).
  setupOpenApi(app);
  return app;
}
