import type { GatewayTestApp, HttpAnswer, RequestOptions } from './gateway-test-app';

/** A browser of one person: keeps the cookies the gateway sets and sends them back, with the CSRF token when asked. */
export class Browser {
  readonly cookies = new Map<string, string>();
  accessToken = '';

  constructor(private readonly gw: GatewayTestApp) {}

  async login(email: string, password: string, extra: Record<string, unknown> = {}): Promise<HttpAnswer> {
    const answer = await this.request('POST', '/auth/login', { body: { email, password, ...extra } });
    if (answer.status === 200) this.accessToken = answer.body.access_token;
    return answer;
  }

  /** A request with the session cookie; `csrf: true` adds `X-CSRF-Token` from the `parley_csrf` cookie. */
  async request(method: string, path: string, options: RequestOptions & { csrf?: boolean | string } = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (options.csrf) headers['x-csrf-token'] = options.csrf === true ? (this.cookies.get('parley_csrf') ?? '') : options.csrf;
    const answer = await this.gw.request(method, path, { ...options, headers });
    for (const line of answer.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      if (attributes.some((a) => a.toLowerCase() === 'max-age=0')) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return answer;
  }
}


export const MEMBER_PASSWORD = 'correct horse battery';
let joined = 0;

/**
 * A member of the API key's tenant with `role`, invited by the program, accepted and signed in (the gateway must run
 * with a low `PASSWORD_SCRYPT_LOG_N` for speed).
 */
export async function signedInMember(gw: GatewayTestApp, apiKey: string, role: 'owner' | 'admin' | 'agent'): Promise<{ id: string; email: string; browser: Browser }> {
  const email = `${role}.${Date.now()}.${++joined}@example.com`;
  const invited = await gw.request('POST', '/api/v1/team', { token: apiKey, body: { email, name: `The ${role}`, role } });
  if (invited.status !== 201) throw new Error(`invite answered ${invited.status}: ${JSON.stringify(invited.body)}`);
  const token = new URL(invited.body.invite_url).searchParams.get('token');
  const accepted = await gw.request('POST', '/api/v1/team/accept', { body: { token, password: MEMBER_PASSWORD } });
  if (accepted.status !== 200) throw new Error(`accept answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
  const browser = new Browser(gw);
  const login = await browser.login(email, MEMBER_PASSWORD);
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${JSON.stringify(login.body)}`);
  return { id: invited.body.id, email, browser };
}
