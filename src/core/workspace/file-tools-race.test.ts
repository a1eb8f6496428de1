// End to end: a command in the agent's folder swaps a parent folder for a link to the outside over and over while
// the agent's file tools read and write below it. Whatever the interleaving, nothing outside is read or written.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fsp, renameSync, rmSync, symlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createWorkspaceToolbox, READ_FILE, WRITE_FILE } from './file-tools';

// Swaps <dir>/a between the real folder and a link to the outside until stdin closes.
const SWAPPER = `
const fs = require('node:fs');
const [dir] = process.argv.slice(2);
const p = (n) => dir + '/' + n;
let stop = false;
process.stdin.on('end', () => (stop = true)).resume();
process.stdout.write('ready\\n');
(function loop() {
  for (let i = 0; i < 200 && !stop; i++) {
    try {
      fs.renameSync(p('a'), p('a-real'));
      fs.renameSync(p('a-link'), p('a'));
      fs.renameSync(p('a'), p('a-link'));
      fs.renameSync(p('a-real'), p('a'));
    } catch {}
  }
  if (stop) process.exit(0);
  setImmediate(loop);
})();
`;

/** Runs `swap` just before the next open(2) this process makes (the path guard itself only lstats). */
function beforeNextOpen(swap: () => void): () => void {
  const real = fsp.open;
  (fsp as { open: typeof fsp.open }).open = ((...args: Parameters<typeof fsp.open>) => {
    (fsp as { open: typeof fsp.open }).open = real;
    swap();
    return real(...args);
  }) as typeof fsp.open;
  return () => ((fsp as { open: typeof fsp.open }).open = real);
}

/** An agent's copy holding a/b/f.txt ("inside") beside an outside folder holding b/f.txt ("SECRET"). */
async function copyBesideOutside(base: string, prefix?: string): Promise<{ own: string; outside: string }> {
  const own = path.join(base, prefix ? `${prefix}-copy` : 'copy');
  const outside = path.join(base, prefix ? `${prefix}-outside` : 'outside');
  await mkdir(path.join(own, 'a', 'b'), { recursive: true });
  await writeFile(path.join(own, 'a', 'b', 'f.txt'), 'inside');
  await mkdir(path.join(outside, 'b'), { recursive: true });
  await writeFile(path.join(outside, 'b', 'f.txt'), 'SECRET');
  return { own, outside };
}

describe('file tools against a folder swapped for a link while they run', function () {
  this.timeout(120_000);
  let base: string;

  before(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'massgen-race-')));
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('a parent folder swapped for a link between the check and the open: read_file and write_file refuse', async function () {
    if (process.platform === 'win32') this.skip();
    const { own, outside } = await copyBesideOutside(base, 'det');
    const swapParent = () => {
      renameSync(path.join(own, 'a'), path.join(own, 'a-moved'));
      symlinkSync(outside, path.join(own, 'a'));
    };
    const unswap = () => {
      rmSync(path.join(own, 'a'));
      renameSync(path.join(own, 'a-moved'), path.join(own, 'a'));
    };
    const box = createWorkspaceToolbox({ own, peers: { labels: ['agent1'], view: () => undefined } });
    const signal = new AbortController().signal;
    let restore = beforeNextOpen(swapParent);
    const read = await box.execute({ id: 'r', name: READ_FILE, arguments: JSON.stringify({ path: 'a/b/f.txt' }) }, signal).finally(restore);
    assert.equal(read.ok, false, read.content);
    assert.match(read.content, /symbolic link/);
    unswap();
    restore = beforeNextOpen(swapParent);
    const write = await box.execute({ id: 'w', name: WRITE_FILE, arguments: JSON.stringify({ path: 'a/b/f.txt', content: 'pwned' }) }, signal).finally(restore);
    assert.equal(write.ok, false, write.content);
    assert.equal(await readFile(path.join(outside, 'b', 'f.txt'), 'utf8'), 'SECRET');
  });

  it('never reads or writes the outside file', async function () {
    if (process.platform === 'win32') this.skip();
    const { own, outside } = await copyBesideOutside(base);
    await symlink(outside, path.join(own, 'a-link'));
    await writeFile(path.join(base, 'swapper.js'), SWAPPER);

    const box = createWorkspaceToolbox({ own, peers: { labels: ['agent1'], view: () => undefined } });
    const swapper = spawn(process.execPath, [path.join(base, 'swapper.js'), own], { stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise((resolve) => swapper.stdout.once('data', resolve));
    const seen: string[] = [];
    try {
      const signal = new AbortController().signal;
      // Eight agents' worth of calls at once, so that some land between a check and its open.
      const worker = async (w: number) => {
        for (let i = 0; i < 150; i++) {
          const read = await box.execute({ id: `r${w}-${i}`, name: READ_FILE, arguments: JSON.stringify({ path: 'a/b/f.txt' }) }, signal);
          if (read.ok) seen.push(read.content);
          await box.execute({ id: `w${w}-${i}`, name: WRITE_FILE, arguments: JSON.stringify({ path: 'a/b/f.txt', content: 'written' }) }, signal);
        }
      };
      await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(worker));
    } finally {
      swapper.stdin.end();
      await new Promise((resolve) => swapper.once('close', resolve));
    }
    assert.ok(!seen.includes('SECRET'), 'read_file returned the outside file');
    assert.equal(await readFile(path.join(outside, 'b', 'f.txt'), 'utf8'), 'SECRET', 'write_file wrote the outside file');
  });
});
