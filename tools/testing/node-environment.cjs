// jest's node environment with Node's own typed-array constructors. jest gives each test file fresh globals, so an
// array a native addon returns (onnxruntime-node's output tensors: the agent's embedding model) fails
// `instanceof Float32Array` inside a test and onnxruntime refuses it. Handing the test files the one set of
// constructors Node itself uses makes the two agree; nothing else changes.
'use strict';
const { TestEnvironment } = require('jest-environment-node');

const SHARED = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

class NodeEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED) this.global[name] = globalThis[name];
  }
}

module.exports = NodeEnvironment;
