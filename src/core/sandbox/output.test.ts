import assert from 'node:assert/strict';
import { cleanText, completeUtf8End, formatBytes, OutputBuffer, utf8Start } from './output';

describe('sandbox output: OutputBuffer', () => {
  it('returns everything when it fits, in order across chunks, and starts over after a take', () => {
    const b = new OutputBuffer(100);
    b.push(Buffer.from('hello '));
    b.push(Buffer.from('world'));
    assert.deepEqual(b.take(), { text: 'hello world', bytes: 11 });
    assert.deepEqual(b.take(), { text: '', bytes: 0 });
    b.push(Buffer.from('x'.repeat(100)));
    assert.equal(b.take().text, 'x'.repeat(100));
  });

  it('keeps the first and last halves of a flood, with a note of what was cut and how to see it', () => {
    const b = new OutputBuffer(20);
    b.push(Buffer.from('HEAD-'));
    for (let i = 0; i < 1000; i++) b.push(Buffer.from('middle '));
    b.push(Buffer.from('-TAIL'));
    assert.equal(b.pendingBytes, 5 + 7000 + 5);
    const { text, bytes } = b.take();
    assert.equal(bytes, 7010);
    assert.ok(text.startsWith('HEAD-midd'), text);
    assert.ok(text.endsWith('ddle -TAIL'), text);
    assert.match(text, /6\.8 KB of output cut here; shown are the first 10 bytes and the last 10 bytes of 6\.8 KB/);
    assert.match(text, /redirect the output to a file in your folder/);
  });

  it('does not split a UTF-8 character at either cut', () => {
    const b = new OutputBuffer(8);
    b.push(Buffer.from('ab€€€€€€€€cd€')); // € is 3 bytes
    const { text } = b.take();
    // The first 4 bytes end inside the first €, the last 4 begin at "d": whole characters only, and the note counts them.
    assert.doesNotMatch(text, /\uFFFD/);
    assert.ok(text.startsWith('ab\n['), text);
    assert.ok(text.endsWith(']\nd€'), text);
    assert.match(text, /25 bytes of output cut here; shown are the first 2 bytes and the last 4 bytes of 31 bytes/);
  });

  it('holds bounded memory however much arrives', () => {
    const b = new OutputBuffer(1024);
    const chunk = Buffer.alloc(64 * 1024, 'y');
    for (let i = 0; i < 200; i++) b.push(chunk);
    assert.equal(b.pendingBytes, 200 * 64 * 1024);
    assert.ok(b.take().text.length < 2048 + 400);
  });
});

describe('sandbox output: helpers', () => {
  it('strips colour and cursor sequences and NULs', () => {
    assert.equal(cleanText('\x1b[31mred\x1b[0m \x1b]0;title\x07ok\0'), 'red ok');
  });
  it('finds UTF-8 boundaries', () => {
    const euro = Buffer.from('€');
    assert.equal(completeUtf8End(Buffer.concat([Buffer.from('a'), euro.subarray(0, 2)])), 1);
    assert.equal(completeUtf8End(Buffer.from('a€')), 4);
    assert.equal(utf8Start(Buffer.concat([euro.subarray(1), Buffer.from('b')])), 2);
    assert.equal(utf8Start(Buffer.from('b')), 0);
  });
  it('formats sizes', () => {
    assert.equal(formatBytes(512), '512 bytes');
    assert.equal(formatBytes(64 * 1024), '64 KB');
    assert.equal(formatBytes(16 * 1024 * 1024), '16.0 MB');
    assert.equal(formatBytes(4 * 1024 ** 3), '4.0 GB');
  });
});
