// The webview bundle: what it is made of (the only src/core modules in it are the pure reducer and the tool names and text helpers it uses, via src/protocol) and
// how big it is (the VSIX goal is < 1 MB in all).

import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { tmpDir } from './harness';

describe('vote viewer bundle', function () {
  this.timeout(60_000);
  let inputs: string[] = [];
  let dir = '';

  before(async () => {
    dir = tmpDir('massgen-webview-bundle-');
    const { buildWebview } = await import('../../webview/build.mjs');
    const result = await buildWebview({ outdir: dir, production: true, metafile: true });
    inputs = Object.keys(result.metafile!.inputs);
  });

  it('takes nothing from src/core but the pure reducer (and the tool names and text helpers it uses), and nothing from src/host', () => {
    assert.deepEqual(inputs.filter((i) => i.startsWith('src/core/')).sort(), ['src/core/engine/run-state.ts', 'src/core/engine/tool-names.ts', 'src/core/util/errors.ts', 'src/core/util/text.ts']);
    assert.deepEqual(inputs.filter((i) => i.startsWith('src/host/')), []);
    assert.ok(inputs.every((i) => !/node_modules\/(vscode|openai|@anthropic-ai|yaml|diff)\//.test(i)), 'no host-only dependency');
  });

  it('stays small: script, styles and the icon font', () => {
    const sizes = Object.fromEntries(readdirSync(dir).filter((f) => !f.endsWith('.map')).map((f) => [f, statSync(join(dir, f)).size]));
    assert.deepEqual(Object.keys(sizes).sort(), ['codicon.css', 'codicon.ttf', 'main.css', 'main.js']);
    assert.ok(sizes['main.js'] < 320 * 1024, `main.js ${sizes['main.js']} bytes`);
    assert.ok(sizes['main.css'] < 48 * 1024, `main.css ${sizes['main.css']} bytes`);
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    assert.ok(total < 560 * 1024, `${total} bytes in all`);
  });
});
