'use strict';
// Deleting the topics of test namespaces (libs/testing uniqueKafkaNamespace): each suite's when it ends
// (integration-environment.cjs), and whatever a suite that died left, after the run (global-teardown.mjs). A broker
// that kept every suite's partitions ran out of open files (20,000 here) once the suites of all projects ran in one go.
const { Kafka, logLevel } = require('kafkajs');

async function deleteNamespaceTopics(namespaces, brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:9092') {
  if (namespaces.length === 0) return;
  const admin = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => namespaces.some((ns) => t.startsWith(ns)));
    for (let i = 0; i < topics.length; i += 100) await admin.deleteTopics({ topics: topics.slice(i, i + 100), timeout: 30000 });
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

module.exports = { deleteNamespaceTopics };
