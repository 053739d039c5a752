import { GatewayTestApp } from '../test/gateway-test-app';

/** CONTRACT.md §1: every error is problem+json with the request id, and every answer echoes x-request-id. */
describe('gateway: HTTP conventions', () => {
  let gw: GatewayTestApp;

  beforeAll(async () => {
    gw = await GatewayTestApp.start('gwhttp');
  });

  afterAll(async () => {
    await gw?.close();
  });

  const expectProblem = (answer: { status: number; headers: Headers; body: Record<string, unknown> }, status: number, type: string) => {
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status, type: `https://parley.dev/problems/${type}`, title: expect.any(String), detail: expect.any(String) });
    expect(answer.body.request_id).toBe(answer.headers.get('x-request-id'));
    expect(JSON.stringify(answer.body)).not.toMatch(/\bat .*\.(js|ts):\d+/);
  };

  it('malformed JSON → 400 malformed-json', async () => {
    const answer = await gw.request('POST', '/api/v1/accounts', { rawBody: '{"name": "Acme",', headers: { 'content-type': 'application/json' } });
    expectProblem(answer, 400, 'malformed-json');
  });

  it('a body over 1 MiB → 413', async () => {
    const answer = await gw.request('POST', '/api/v1/accounts', { body: { name: 'x'.repeat(1024 * 1024) } });
    expectProblem(answer, 413, 'payload-too-large');
  });

  it.each([
    ['text/plain', 'name=Acme'],
    ['application/x-www-form-urlencoded', 'name=Acme'],
    ['application/xml', '<name>Acme</name>'],
  ])('a %s body on a JSON route → 415', async (contentType, rawBody) => {
    const answer = await gw.request('POST', '/api/v1/accounts', { rawBody, headers: { 'content-type': contentType } });
    expectProblem(answer, 415, 'unsupported-media-type');
  });

  it('a body that is JSON but not an object → 400', async () => {
    const answer = await gw.request('POST', '/api/v1/accounts', { rawBody: '["Acme"]', headers: { 'content-type': 'application/json' } });
    expectProblem(answer, 400, 'validation-error');
  });

  it('an unknown route → 404', async () => {
    expectProblem(await gw.request('GET', '/api/v1/nothing-here'), 404, 'not-found');
    expectProblem(await gw.request('DELETE', '/v2/send'), 404, 'not-found');
  });

  it('a known route with a method it does not serve → 405 with Allow', async () => {
    const send = await gw.request('DELETE', '/v1/send');
    expectProblem(send, 405, 'method-not-allowed');
    expect(send.headers.get('allow')).toBe('POST');
    const agent = await gw.request('PATCH', '/api/v1/agents/support', { body: { name: 'support' } });
    expectProblem(agent, 405, 'method-not-allowed');
    expect(agent.headers.get('allow')).toBe('DELETE, GET, HEAD, PUT');
    // No credential needed to learn that: the method is wrong before anything else.
    expect((await gw.request('PUT', '/api/v1/messages/msg_01AAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(405);
    expect((await gw.request('GET', '/oauth/token')).status).toBe(405);
  });

  it('echoes the caller’s x-request-id, and makes one up otherwise', async () => {
    const mine = await gw.request('GET', '/health', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-abc-123');
    const problem = await gw.request('GET', '/nope', { headers: { 'x-request-id': 'trace-404' } });
    expect(problem.body.request_id).toBe('trace-404');
    const generated = await gw.request('GET', '/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('health and readiness', async () => {
    expect((await gw.request('GET', '/health')).body).toEqual({ status: 'ok' });
    const ready = await gw.request('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ database: { ok: true }, kafka: { ok: true }, redis: { ok: true } });
  });

  it('serves the icon browsers ask for at the origin root (/favicon.ico) and the one the dashboard links (/favicon.svg)', async () => {
    const ico = await fetch(`${gw.baseUrl}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await ico.arrayBuffer());
    // An ICO directory (reserved 0, type 1 = icon, one image) whose one image is a 32×32 PNG.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4), bytes[6], bytes[7]]).toEqual([0, 1, 1, 32, 32]);
    expect(bytes.subarray(bytes.readUInt32LE(18), bytes.readUInt32LE(18) + 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.length).toBe(22 + bytes.readUInt32LE(14));

    const svg = await gw.request('GET', '/favicon.svg');
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(svg.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
  });
});
