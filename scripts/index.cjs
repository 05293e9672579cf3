'use strict';
// tessera's CommonJS entry: the ESM build itself, loaded with require(esm), so a program that
// requires tessera shares one copy of every module with its workers and dynamic imports.
//
// Not through require('./index.js') when Node runs this file: loader hooks get in its way.
// tsx's require hook compiles an ES module it is asked for into a second, CommonJS copy (whose
// NDArray is not the one the scheduler checks for), and a .cts file that tsx loads gets Node
// 20's require() of the ESM loader, which cannot link an ES module while asynchronous hooks
// are registered (ERR_VM_MODULE_LINK_FAILURE). Module#_compile with the format 'module' is
// Node's own require(esm) step, which neither hook sees. A bundler's `module` is not a Node
// Module: there the static require below is what it follows and bundles.

const Module = require('node:module');

const OLD_NODE = 'require() of ES modules needs Node >= 20.19; use import, or upgrade Node';

/** dist/index.js as Node's require(esm) loads it: its module namespace object. */
function loadEsmBuild() {
  const filename = require('node:path').join(__dirname, 'index.js');
  const esm = new Module(filename, module);
  esm.filename = filename;
  esm.paths = Module._nodeModulePaths(__dirname);
  esm._compile(require('node:fs').readFileSync(filename, 'utf8'), filename, 'module');
  return esm.exports;
}

const nodeRequiresEsm =
  process.features.require_module === true && Module.prototype._compile.length >= 3;

/** The ESM build past the hooks; plain require() where this Node's _compile cannot load ESM. */
function load() {
  if (!(module instanceof Module && nodeRequiresEsm)) return require('./index.js');
  try {
    return loadEsmBuild();
  } catch (e) {
    // a _compile that took index.js for CommonJS: it ran nothing, it failed to parse
    if (e instanceof SyntaxError && /\b(import|export)\b/.test(e.message))
      return require('./index.js');
    throw e;
  }
}

try {
  module.exports = load();
} catch (e) {
  if (e?.code !== 'ERR_REQUIRE_ESM') throw e;
  throw new Error(`require('tessera'): ${OLD_NODE}`, { cause: e });
}
