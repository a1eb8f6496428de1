// The `massgen` binary (dist/cli.js): turns on V8's code cache, then loads the CLI itself (dist/cli-main.js).
// Compiling the 1.5 MB bundle is most of the CLI's start-up; with the cache, later starts reuse the compiled code
// (Node ≥ 22: its own compile cache; Node 20: v8-compile-cache). Both keep the cache in the OS temp directory;
// DISABLE_V8_COMPILE_CACHE=1 turns it off.

import * as Module from 'node:module';

const builtIn = (Module as { enableCompileCache?: () => unknown }).enableCompileCache;
if (!process.env.DISABLE_V8_COMPILE_CACHE) {
  if (builtIn) builtIn();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  else require('v8-compile-cache');
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('./cli-main.js');
