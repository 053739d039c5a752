import { Parser } from '@asyncapi/parser';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { EVENT_ROUTES, EVENT_TOPICS, TOPIC_SPECS } from '../index';
import { buildAsyncApiDocument } from './asyncapi';
import { renderEventCatalogue } from './event-catalogue';
import { readRecordedSchema, recordedVersions } from './recorded';

const workspaceRoot = join(__dirname, '../../../..');
const asyncApiText = readFileSync(join(workspaceRoot, 'docs/asyncapi.yaml'), 'utf8');

/** The document from the checked-in schemas (themselves kept equal to the types by event-schemas.spec.ts). */
function expectedDocument(): Record<string, unknown> {
  return buildAsyncApiDocument(EVENT_TOPICS.map((topic) => ({ topic, schema: currentSchema(topic) })));
}

function currentSchema(topic: string) {
  return readRecordedSchema(topic, Math.max(...recordedVersions(topic)));
}

describe('docs/asyncapi.yaml', () => {
  it('is valid under the AsyncAPI parser, with no errors or warnings', async () => {
    const { document, diagnostics } = await new Parser().parse(asyncApiText);
    // severity 0 = error, 1 = warning (2 and 3 are hints, e.g. that a newer spec version exists)
    expect(diagnostics.filter((d) => d.severity <= 1).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document?.channels().all().map((c) => c.address())).toEqual(TOPIC_SPECS.map((s) => s.name));
  }, 60_000);

  it('is what `npm run contracts:generate` writes from TOPIC_SPECS and the event schemas (no drift)', () => {
    expect(parse(asyncApiText)).toEqual(expectedDocument());
  });

  it('describes every topic with its partitions, every event with its key, headers, payload, producers and consumers', async () => {
    const { document } = await new Parser().parse(asyncApiText);
    for (const spec of TOPIC_SPECS) {
      const channel = document!.channels().get(spec.name)!;
      expect(channel.bindings().get('kafka')?.value()).toMatchObject({ partitions: spec.partitions });
    }
    for (const topic of EVENT_TOPICS) {
      const [message] = document!.channels().get(topic)!.messages().all();
      // the payload is the event's schema (the parser adds its own x-parser-* ids)
      expect(message.payload()?.json()).toMatchObject({ properties: { type: { const: topic }, version: { const: Math.max(...recordedVersions(topic)) } }, required: currentSchema(topic).required });
      expect(message.headers()?.json()).toMatchObject({ properties: { 'x-request-id': { type: 'string' } } });
      expect(message.bindings().get('kafka')?.value()).toMatchObject({ key: { description: EVENT_ROUTES[topic].key } });
      const operations = document!.operations().all().filter((op) => op.channels().all().some((c) => c.address() === topic));
      expect(operations.filter((op) => op.isSend()).map((op) => op.id())).toEqual(EVENT_ROUTES[topic].producers.map((p) => `${p}.send.${topic}`));
      expect(operations.filter((op) => op.isReceive()).map((op) => op.id())).toEqual(EVENT_ROUTES[topic].consumers.map((c) => `${c}.receive.${topic}`));
    }
  }, 60_000);

  it('is what the docs site\'s event catalogue (docs/reference/events.md) says, public webhook events first (no drift)', () => {
    const catalogue = readFileSync(join(workspaceRoot, 'docs/reference/events.md'), 'utf8');
    expect(catalogue).toBe(renderEventCatalogue(parse(asyncApiText)));
    const webhookSection = catalogue.slice(catalogue.indexOf('## Webhook events'), catalogue.indexOf('## Internal topics'));
    expect(webhookSection).toContain('### message.received');
    expect(webhookSection).toContain('| `data.agent_response` | string \\| null | yes |');
    expect(webhookSection).not.toContain('### message.outbound');
    for (const topic of EVENT_TOPICS) expect(catalogue).toContain(`### ${topic}\n`);
  });
});
