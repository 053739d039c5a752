'use strict';
// The jest environment of the integration tiers: Node's, with Node's own typed arrays (node-environment.cjs: the
// responder's embedding model needs them), and when a suite ends (after its own afterAll hooks closed its services)
// the topics of the Kafka namespaces it made are deleted, so the broker holds only the running suites'.
const NodeEnvironment = require('./node-environment.cjs');
const { deleteNamespaceTopics } = require('./kafka-namespaces.cjs');

class IntegrationEnvironment extends NodeEnvironment {
  async teardown() {
    const namespaces = [...(this.global.__PARLEY_KAFKA_NAMESPACES__ ?? [])]; // read before Jest clears the suite's globals
    await super.teardown();
    // left for the run's global teardown when the broker does not answer now
    await deleteNamespaceTopics(namespaces).catch((err) => process.stderr.write(`[test environment] could not delete the suite's topics: ${err?.message ?? err}\n`));
  }
}

module.exports = IntegrationEnvironment;
