import { Injectable } from '@nestjs/common';
import { problem, ProblemTypes, type WhatsappProvider } from '@parley/contracts';
import { ProblemException } from '@parley/service-kit';
import { MessagingServiceConfig } from '../config/messaging-service.config';

const TIMEOUT_MS = 10_000;

export interface ProviderTemplate {
  name: string;
  language: string;
  category: string;
  components: unknown[];
}

/** The channel a template call goes through: its provider, WABA and token. */
export interface TemplateAccount {
  provider: WhatsappProvider;
  wabaId: string;
  accessToken: string;
}

/**
 * The Graph API's template routes (`POST /{v}/{waba_id}/message_templates`, `DELETE …?hsm_id=&name=`), against Meta for
 * `meta` channels and the sandbox for `sandbox` ones. A refusal is the tenant's to fix (400 with Graph's message); no
 * answer is a 503.
 */
@Injectable()
export class GraphTemplatesClient {
  constructor(private readonly config: MessagingServiceConfig) {}

  /** Submits a template for review → the provider's id and its first status. */
  async create(account: TemplateAccount, template: ProviderTemplate): Promise<{ id: string; status: string }> {
    const body = await this.call(account, 'POST', 'message_templates', template);
    const { id, status } = (body ?? {}) as { id?: unknown; status?: unknown };
    if (typeof id !== 'string' || !id) throw unavailable('the provider answered without a template id');
    return { id, status: typeof status === 'string' ? status : 'PENDING' };
  }

  async delete(account: TemplateAccount, providerId: string, name: string): Promise<void> {
    await this.call(account, 'DELETE', `message_templates?${new URLSearchParams({ hsm_id: providerId, name }).toString()}`);
  }

  private async call(account: TemplateAccount, method: 'POST' | 'DELETE', path: string, body?: object): Promise<unknown> {
    const base = account.provider === 'sandbox' ? this.config.SANDBOX_URL : this.config.GRAPH_API_BASE_URL;
    let response: Response;
    try {
      response = await fetch(`${base}/${this.config.GRAPH_API_VERSION}/${encodeURIComponent(account.wabaId)}/${path}`, {
        method,
        headers: { authorization: `Bearer ${account.accessToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw unavailable(`the provider did not answer (${(err as Error).name})`);
    }
    const answer = (await response.json().catch(() => null)) as { error?: { message?: unknown } } | null;
    if (response.ok) return answer;
    const message = typeof answer?.error?.message === 'string' ? answer.error.message : `HTTP ${response.status}`;
    if (response.status >= 500 || response.status === 429) throw unavailable(message);
    throw new ProblemException(problem(400, ProblemTypes.validation, 'Bad Request', `The WhatsApp provider refused the template: ${message}`));
  }
}

function unavailable(why: string): ProblemException {
  return new ProblemException(problem(503, ProblemTypes.unavailable, 'Service Unavailable', `The template could not be submitted right now (${why}); retry shortly.`), {
    'retry-after': '5',
  });
}
