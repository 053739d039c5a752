import { Topics } from '@parley/contracts';
import { eventSchemaVersions, expectMatchesEventSchema, recordedEventExamples } from './event-contracts';

describe('event contract helpers', () => {
  it('finds the recorded versions and examples of every event topic', () => {
    for (const topic of Object.values(Topics)) {
      expect(eventSchemaVersions(topic).length).toBeGreaterThan(0);
      const examples = recordedEventExamples<{ type: string }>(topic);
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) expect(example.envelope.type).toBe(topic);
    }
  });

  it('accepts the recorded examples and names what is wrong with a drifted envelope', () => {
    const [example] = recordedEventExamples<{ version: number; data: Record<string, unknown> }>(Topics.MessageStatus);
    expect(() => expectMatchesEventSchema(Topics.MessageStatus, example.envelope)).not.toThrow();
    const { to: _to, ...data } = example.envelope.data;
    expect(() => expectMatchesEventSchema(Topics.MessageStatus, { ...example.envelope, data: { ...data, status: 'lost' } })).toThrow(
      new RegExp(`message\\.status v${example.envelope.version} event does not match its schema:[\\s\\S]*/data must have required property 'to'[\\s\\S]*/data/status must be equal to one of the allowed values`),
    );
    expect(() => expectMatchesEventSchema(Topics.MessageStatus, { ...example.envelope, version: 7 })).toThrow(/version 7; recorded versions: 1, 2, 3/);
    expect(() => expectMatchesEventSchema('no.such.topic', example.envelope)).toThrow(/no recorded event schema/);
  });
});
