'use strict';
// tessera's CommonJS entry: the ESM build itself, loaded with require(esm), so a program that
// requires tessera shares one copy of every module with its workers and dynamic imports.

const HOOKS =
  "this Node cannot require() an ES module while asynchronous loader hooks (such as tsx's) " +
  "are registered; use import, or await import('tessera'), or run the file with plain node";
const OLD_NODE = 'require() of ES modules needs Node >= 20.19; use import, or upgrade Node';

try {
  module.exports = require('./index.js');
} catch (e) {
  const why =
    e?.code === 'ERR_VM_MODULE_LINK_FAILURE'
      ? HOOKS
      : e?.code === 'ERR_REQUIRE_ESM'
        ? OLD_NODE
        : '';
  if (why === '') throw e;
  throw new Error(`require('tessera'): ${why}`, { cause: e });
}
