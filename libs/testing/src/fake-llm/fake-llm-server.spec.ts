import OpenAI from 'openai';
import { FAKE_EMBEDDING_DIMENSIONS, fakeEmbedding } from './fake-embeddings';
import { FakeLlmServer } from './fake-llm-server';

const TOOLS = [{ type: 'function', function: { name: 'lookup', description: 'Looks up', parameters: { type: 'object', properties: {} } } }];
const CALL = { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } };
const cosine = (a: number[], b: number[]) => a.reduce((sum, v, i) => sum + v * b[i], 0);

/** The stand-in over real HTTP: it refuses what OpenAI refuses, with OpenAI's 400 body, and embeds deterministically. */
describe('FakeLlmServer, as strict as the OpenAI API', () => {
  let fake: FakeLlmServer;

  beforeAll(async () => {
    fake = await FakeLlmServer.start();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.reset();
    fake.respond(() => ({ content: 'ok' }));
  });

  async function post(path: string, body: unknown): Promise<{ status: number; body: { error?: Record<string, unknown> } & Record<string, unknown> }> {
    const response = await fetch(`${fake.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as { error?: Record<string, unknown> } };
  }

  it('answers a well-formed multi-round tool conversation', async () => {
    const answer = await post('/chat/completions', {
      model: 'fake-model',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [CALL] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"ok":true}' },
      ],
      tools: TOOLS,
      tool_choice: 'auto',
      temperature: 0.2,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ object: 'chat.completion', choices: [{ message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }] });
    expect(fake.requests).toHaveLength(1);
  });

  const wrong: [string, Record<string, unknown>, { message: RegExp; param: string | null }][] = [
    ['no model', { messages: [{ role: 'user', content: 'hi' }] }, { message: /must provide a model parameter/, param: null }],
    ['an unknown top-level field', { model: 'm', messages: [{ role: 'user', content: 'hi' }], temprature: 1 }, { message: /Unrecognized request argument supplied: temprature/, param: null }],
    ['an unknown message field', { model: 'm', messages: [{ role: 'user', content: 'hi', tool_call_id: 'x' }] }, { message: /'tool_call_id' was unexpected/, param: 'messages.[0]' }],
    [
      'a tool message not following an assistant message with tool_calls',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'tool', tool_call_id: 'call_1', content: '{}' }] },
      { message: /role 'tool' must be a response to a preceeding message with 'tool_calls'/, param: 'messages.[1].role' },
    ],
    [
      'a tool_call_id matching no preceding call',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [CALL] }, { role: 'tool', tool_call_id: 'call_2', content: '{}' }] },
      { message: /'tool_call_id' of 'call_2' not found/, param: 'messages.[2].tool_call_id' },
    ],
    [
      'a call answered twice',
      {
        model: 'm',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: null, tool_calls: [CALL] },
          { role: 'tool', tool_call_id: 'call_1', content: '{}' },
          { role: 'tool', tool_call_id: 'call_1', content: '{}' },
        ],
      },
      { message: /'tool_call_id' of 'call_1' not found/, param: 'messages.[3].tool_call_id' },
    ],
    [
      'a user message before the calls are answered',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [CALL] }, { role: 'user', content: 'well?' }] },
      { message: /did not have response messages: call_1/, param: 'messages.[2].role' },
    ],
    [
      'calls left unanswered at the end',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [CALL] }] },
      { message: /did not have response messages: call_1/, param: 'messages.[1].role' },
    ],
    ['an unknown role', { model: 'm', messages: [{ role: 'customer', content: 'hi' }] }, { message: /Invalid value: 'customer'/, param: 'messages.[0].role' }],
    ['an empty messages array', { model: 'm', messages: [] }, { message: /empty array/, param: 'messages' }],
    [
      'an unknown field in a tool definition',
      { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [{ ...TOOLS[0], function: { ...TOOLS[0].function, returns: {} } }] },
      { message: /Unrecognized request argument supplied: tools\[0\]\.returns/, param: 'tools[0]' },
    ],
  ];

  it.each(wrong)('refuses %s with a 400 in OpenAI’s error shape, before any script runs', async (_, body, expected) => {
    const answer = await post('/chat/completions', body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { message: expect.stringMatching(expected.message), type: 'invalid_request_error', param: expected.param } });
    expect(Object.keys(answer.body).sort()).toEqual(['error']);
    expect(Object.keys(answer.body.error!).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(fake.requests).toHaveLength(0);
    expect(fake.rejected).toHaveLength(1);
  });

  it('plays a refusal and a scripted error status', async () => {
    fake.respond((_, i) => (i === 0 ? { refusal: 'I cannot help with that.' } : { status: 503, message: 'overloaded', code: 'overloaded' }));
    const refused = await post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(refused.body).toMatchObject({ choices: [{ message: { content: null, refusal: 'I cannot help with that.' } }] });
    const failed = await post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    expect(failed).toEqual({ status: 503, body: { error: { message: 'overloaded', type: 'server_error', param: null, code: 'overloaded' } } });
  });

  it('embeds deterministically for the official client (float and base64), sharing words making vectors close', async () => {
    const client = new OpenAI({ baseURL: fake.baseUrl, apiKey: 'unused', maxRetries: 0 });
    const texts = ['Do you accept Cigna insurance?', 'is cigna ok for you guys', 'Parking is behind the building.'];
    const asFloat = await client.embeddings.create({ model: 'fake-embed', input: texts, encoding_format: 'float' });
    const asBase64 = await client.embeddings.create({ model: 'fake-embed', input: texts }); // the SDK asks for base64 and decodes it
    const [insurance, question, parking] = asFloat.data.map((d) => d.embedding);
    expect(insurance).toHaveLength(FAKE_EMBEDDING_DIMENSIONS);
    expect(insurance).toEqual(fakeEmbedding(texts[0]));
    asBase64.data.forEach((d, i) => d.embedding.forEach((v, j) => expect(v).toBeCloseTo(asFloat.data[i].embedding[j], 6)));
    expect(cosine(question, insurance)).toBeGreaterThan(0.2);
    expect(Math.abs(cosine(question, parking))).toBeLessThan(cosine(question, insurance));
    expect(fake.embeddingRequests).toEqual([texts, texts]);
  });

  it('refuses a malformed embeddings request, and a server started without embeddings answers 404', async () => {
    expect(await post('/embeddings', { input: 'hi' })).toMatchObject({ status: 400, body: { error: { message: 'you must provide a model parameter', type: 'invalid_request_error' } } });
    expect(await post('/embeddings', { model: 'e', input: [] })).toMatchObject({ status: 400, body: { error: { param: 'input' } } });
    expect(await post('/embeddings', { model: 'e', input: 'hi', pooling: 'mean' })).toMatchObject({ status: 400, body: { error: { message: /pooling/ } } });
    const bare = await FakeLlmServer.start({ embeddings: false });
    try {
      const response = await fetch(`${bare.baseUrl}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"e","input":"hi"}' });
      expect(response.status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
