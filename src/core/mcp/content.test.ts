import assert from 'node:assert/strict';
import { resultToText } from './content';

describe('mcp content', () => {
  it('maps every content type to text', () => {
    const text = resultToText({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: 'A'.repeat(4000) },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'file:///b', name: 'b', description: 'the b file' },
        { type: 'hologram' },
        null,
      ],
    });
    assert.equal(text, [
      'hello',
      '[image: image/png, 2.9 KB; not shown to the model]',
      '[audio: audio/wav, 3 bytes; not shown to the model]',
      '[resource file:///a.txt (text/plain)]\ninside',
      '[binary resource file:///a.bin, 3 bytes; not shown to the model]',
      '[resource link: b <file:///b>: the b file]',
      '[hologram content; not shown to the model]',
    ].join('\n'));
  });

  it('falls back to structured content, then the old toolResult, then says there was no output', () => {
    assert.equal(resultToText({ content: [], structuredContent: { sum: 3 } }), '{\n  "sum": 3\n}');
    assert.equal(resultToText({ toolResult: { ok: 1 } }), '{"ok":1}');
    assert.equal(resultToText({ content: [] }), '(no output)');
    assert.equal(resultToText({ content: [{ type: 'text', text: 'x' }], structuredContent: { y: 1 } }), 'x', 'content wins');
  });
});
