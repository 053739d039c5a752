import { BaseConfig, Secret } from '@parley/service-kit';
import { IsInt, IsString, IsUrl, Matches, Max, Min, ValidateIf } from 'class-validator';

export class ResponderServiceConfig extends BaseConfig {
  override PORT = 3003;

  /**
   * The gateway's public origin (the gateway's own setting of that name), for links into the dashboard
   * (`conversation.handoff`'s `dashboard_url`). Empty: the development gateway's.
   */
  @Matches(/^(https?:\/\/[^\s/]+)?$/, { message: 'PUBLIC_BASE_URL must be an http(s) origin without a path, or empty' })
  PUBLIC_BASE_URL = '';

  /** OpenAI-compatible endpoint including `/v1`; empty: replies come from the deterministic engine (unless a tenant has its own, §16). */
  @ValidateIf((c: ResponderServiceConfig) => c.LLM_BASE_URL !== '')
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'LLM_BASE_URL must be an http(s) URL or empty' })
  LLM_BASE_URL = '';

  /**
   * Not a `@Secret()`: its development default is "no LLM", which is a valid production setting, so the
   * production guard must not refuse to start on it.
   */
  @IsString()
  LLM_API_KEY = '';

  @IsString()
  LLM_MODEL = '';

  /** Budget of one LLM reply, every tool round included; past it the deterministic engine answers. */
  @IsInt()
  @Min(100)
  @Max(120_000)
  LLM_TIMEOUT_MS = 15_000;

  /** Retries of one LLM call after a connection error or a 408/409/429/5xx, within LLM_TIMEOUT_MS. */
  @IsInt()
  @Min(0)
  @Max(5)
  LLM_MAX_RETRIES = 1;

  /**
   * The embeddings model asked at `{LLM_BASE_URL}/embeddings` to rerank knowledge for the LLM (empty: LLM_MODEL). The
   * server is probed once; without embeddings, retrieval stays lexical.
   */
  @IsString()
  LLM_EMBEDDING_MODEL = '';

  /** Rounds of tool calls one LLM reply may take; a model still calling tools after them is abandoned. */
  @IsInt()
  @Min(1)
  @Max(10)
  LLM_MAX_TOOL_ROUNDS = 4;

  /** LLM replies one tenant may have in flight per instance; beyond it the deterministic engine answers at once. */
  @IsInt()
  @Min(1)
  LLM_MAX_CONCURRENT_PER_TENANT = 4;

  /**
   * AES-256-GCM keys of tenants' stored LLM API keys: 32 bytes each, base64; comma-separated, the first encrypts
   * (messaging-service's setting of that name, read the same way).
   */
  @Secret()
  @Matches(/^[A-Za-z0-9+/]{43}=(,[A-Za-z0-9+/]{43}=)*$/, {
    message: 'ENCRYPTION_KEY must be a comma-separated list of 32-byte keys, each base64 (44 characters)',
  })
  ENCRYPTION_KEY = 'ZGV2LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGVzLWxvbmc=';

  get dashboardOrigin(): string {
    return this.PUBLIC_BASE_URL || 'http://127.0.0.1:3000';
  }

  get llmEnabled(): boolean {
    return this.LLM_BASE_URL !== '' && this.LLM_MODEL !== '';
  }
}
