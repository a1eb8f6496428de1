import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ProcessGroupStdioTransport, serverEnvironment } from './stdio-transport';

// A server that writes one 11 MiB line (past the SDK's 10 MiB ReadBuffer limit), then waits to be closed.
const HUGE_LINE_SERVER = `
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
process.stdout.write('x'.repeat(11 * 1024 * 1024) + '\\n');
setInterval(() => undefined, 1000);
`;

describe('ProcessGroupStdioTransport', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'massgen-stdio-'));
    await writeFile(path.join(dir, 'huge.js'), HUGE_LINE_SERVER);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('a server writing a line over 10 MiB is closed with a clear error, and this process goes on', async () => {
    const transport = new ProcessGroupStdioTransport({ command: process.execPath, args: [path.join(dir, 'huge.js')], env: serverEnvironment({}), closeGraceMs: 200 });
    const errors: Error[] = [];
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    transport.onerror = (err) => errors.push(err);
    transport.onmessage = () => assert.fail('no message should come through');
    await transport.start();
    await closed;
    assert.equal(errors.length, 1, errors.map((e) => e.message).join('\n'));
    assert.match(errors[0].message, /was closed: it wrote a message larger than the 10 MiB limit/);
    assert.match(transport.exitStatus ?? '', /^closed because it wrote a message larger than the 10 MiB limit; /);
    await transport.close(); // safe after the drop
  });
});
