import { BaseConfig } from '@parley/service-kit';
import { IsString, IsUrl, ValidateIf } from 'class-validator';

export class ResponderServiceConfig extends BaseConfig {
  override PORT = 3003;

  /** OpenAI-compatible endpoint including `/v1`; empty: replies come from the deterministic engine. */
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

  get llmEnabled(): boolean {
    return this.LLM_BASE_URL !== '' && this.LLM_MODEL !== '';
  }
}
