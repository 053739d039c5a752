import { TestFailureCollector } from './test-failures.cjs';

// What nx (--outputStyle=static) relays of jest on a failing integration tier, trimmed; jest colours it on a terminal.
const tierOutput = `
> nx run crm-service:test-integration

> jest --config apps/crm-service/jest.integration.config.cjs --runInBand

 PASS  crm-service:integration  apps/crm-service/src/contacts/contacts.integration-spec.ts (21.2 s)
 FAIL  crm-service:integration  apps/crm-service/src/contacts/inbound-batch.integration-spec.ts (9.8 s)
  ● Console

    console.log
      a line a test printed

  ● contacts from inbound messages › writes a whole batch in five statements

    expect(received).toBe(expected) // Object.is equality

    Expected: 5
    Received: 6

  ● contacts from inbound messages › a redelivery changes nothing

    thrown: "Exceeded timeout of 5000 ms for a test.

 FAIL  crm-service:integration  apps/crm-service/src/timeline/timeline.integration-spec.ts
  ● Test suite failed to run

    connect ECONNREFUSED 127.0.0.1:5432

Summary of all failing tests
 FAIL  crm-service:integration  apps/crm-service/src/contacts/inbound-batch.integration-spec.ts (9.8 s)
  ● contacts from inbound messages › writes a whole batch in five statements

    expect(received).toBe(expected) // Object.is equality

 NX   Running target test-integration for 3 projects failed

Failed tasks:

- crm-service:test-integration
- billing-service:test-integration

`;

function collect(output: string, chunkSize = output.length) {
  const collector = new TestFailureCollector();
  for (let i = 0; i < output.length; i += chunkSize) collector.push(output.slice(i, i + chunkSize));
  return collector.failures();
}

describe('TestFailureCollector', () => {
  it("names each failed file once with its failed tests and each test's first error line, and the failed nx tasks", () => {
    expect(collect(tierOutput)).toEqual({
      files: [
        {
          file: 'apps/crm-service/src/contacts/inbound-batch.integration-spec.ts',
          project: 'crm-service:integration',
          tests: [
            {
              title: 'contacts from inbound messages › writes a whole batch in five statements',
              reason: 'expect(received).toBe(expected) // Object.is equality',
            },
            {
              title: 'contacts from inbound messages › a redelivery changes nothing',
              reason: 'thrown: "Exceeded timeout of 5000 ms for a test.',
            },
          ],
        },
        {
          file: 'apps/crm-service/src/timeline/timeline.integration-spec.ts',
          project: 'crm-service:integration',
          tests: [{ title: 'Test suite failed to run', reason: 'connect ECONNREFUSED 127.0.0.1:5432' }],
        },
      ],
      tasks: ['crm-service:test-integration', 'billing-service:test-integration'],
    });
  });

  it('reads the same from output that arrives in small chunks, split mid-line', () => {
    expect(collect(tierOutput, 7)).toEqual(collect(tierOutput));
  });

  it("ignores terminal colours, and files jest ran without a displayName", () => {
    const coloured = '\x1b[0m\x1b[7m\x1b[1m\x1b[31m FAIL \x1b[39m\x1b[22m\x1b[27m\x1b[0m \x1b[2mlibs/kafka/src/\x1b[22m\x1b[1mkafka-log.spec.ts\x1b[22m\n  \x1b[1m● \x1b[22mkafka log › drops nothing else\n\n    boom\n';
    expect(collect(coloured).files).toEqual([
      { file: 'libs/kafka/src/kafka-log.spec.ts', project: undefined, tests: [{ title: 'kafka log › drops nothing else', reason: 'boom' }] },
    ]);
  });

  it('finds nothing in a passing run, though its services log errors and its tests print bullets', () => {
    const passing = ' PASS  testing:integration  libs/testing/src/kafka-transport.integration-spec.ts (19.2 s)\n  ● not a failure\nERROR [KafkaTransport] moving a message to the dlq\n';
    expect(collect(passing)).toEqual({ files: [], tasks: [] });
  });
});
