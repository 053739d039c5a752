import { FakeLlmServer } from './fake-llm-server';

/**
 * Runs the fake OpenAI-compatible server on its own, for a development stack:
 *   node tools/dev/swc-build.mjs libs/testing && node dist/libs/testing/src/fake-llm/main.js   (FAKE_LLM_PORT, default 3200)
 * then start the stack with LLM_BASE_URL=http://127.0.0.1:3200/v1 LLM_MODEL=fake-model.
 */
async function main(): Promise<void> {
  const server = await FakeLlmServer.start({ port: Number(process.env['FAKE_LLM_PORT'] ?? 3200) });
  process.stdout.write(`fake OpenAI-compatible LLM at ${server.baseUrl} (POST /chat/completions, /embeddings)\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
