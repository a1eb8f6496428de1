// One check in the real bubblewrap sandbox: how its ending maps to a result, what of its output is kept, and that
// it sees the dependencies it is given but no API key and nothing of the host to write.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSandbox, type SandboxInfo } from '../sandbox';
import { linkDependencies } from './dependencies';
import { CHECK_OUTPUT_KEPT_CHARS, runCheck } from './run-check';

const spec = (command: string, timeoutSeconds = 30) => ({ name: 'tests', command, timeoutSeconds, required: true });

describe('checks: runCheck in the sandbox', function () {
  this.timeout(30_000);
  let sandbox: SandboxInfo;
  let root: string;
  let folder: string;
  const never = new AbortController().signal;

  before(async () => {
    sandbox = await detectSandbox();
    assert.equal(sandbox.kind, 'bubblewrap', sandbox.description);
  });
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'massgen-check-')));
    folder = join(root, 'checkout');
    mkdirSync(folder);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('exit 0 passes; another exit code fails with the end of the output kept', async () => {
    const passed = await runCheck(spec('echo "3 passing"'), folder, { sandbox }, never);
    assert.deepEqual({ ...passed, durationMs: 0 }, { name: 'tests', required: true, cached: false, status: 'passed', exitCode: 0, durationMs: 0, output: '3 passing\n' });
    const failed = await runCheck(spec(`i=0; while [ $i -lt 3000 ]; do echo "line $i"; i=$((i+1)); done; echo "1 failing"; exit 3`), folder, { sandbox }, never);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.exitCode, 3);
    assert.ok(failed.output.length <= CHECK_OUTPUT_KEPT_CHARS + 1);
    assert.match(failed.output, /line 2999\n1 failing\n$/);
  });

  it('a check past its timeout is killed and says so; an aborted one is cancelled', async () => {
    const slow = await runCheck(spec('sleep 30', 0.3), folder, { sandbox }, never);
    assert.equal(slow.status, 'timeout');
    assert.equal(slow.exitCode, null);
    assert.match(slow.output, /^\[timed out after 0\.3 s/);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    assert.equal((await runCheck(spec('sleep 30'), folder, { sandbox }, stop.signal)).status, 'cancelled');
  });

  it('no API key reaches it, it cannot write outside its checkout, and it reads the linked dependencies', async () => {
    const deps = join(root, 'project', 'node_modules');
    mkdirSync(join(deps, 'lib'), { recursive: true });
    writeFileSync(join(deps, 'lib', 'index.js'), 'module.exports = 42;\n');
    await linkDependencies(folder, [deps]);
    const outside = join(root, 'outside.txt');
    const r = await runCheck(
      spec(`echo "key=[$OPENAI_API_KEY] other=[$MY_VAR]"; cat node_modules/lib/index.js; echo x > ${outside}; echo y > node_modules/lib/new.js || echo "deps read-only"`),
      folder,
      { sandbox, readOnlyPaths: [deps], knownSecrets: ['sk-test-SECRET'], parentEnv: { PATH: process.env.PATH, OPENAI_API_KEY: 'sk-test-SECRET', MY_VAR: 'has sk-test-SECRET inside' } },
      never,
    );
    assert.doesNotMatch(r.output, /sk-test-SECRET/);
    assert.match(r.output, /key=\[\] other=\[\]/);
    assert.match(r.output, /module\.exports = 42;/);
    assert.equal(existsSync(outside), false, 'a write outside the checkout never reaches the host');
    assert.match(r.output, /deps read-only/);
  });
});
