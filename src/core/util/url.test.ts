import assert from 'node:assert/strict';
import { hideUrlSecrets, publicUrl } from './url';

describe('publicUrl', () => {
  it('drops credentials, query and fragment, keeping where it points', () => {
    assert.equal(publicUrl('https://user:sk-secret@proxy.example.com:8443/v1?key=sk-2#x'), 'https://proxy.example.com:8443/v1');
    assert.equal(publicUrl('http://127.0.0.1:11434/v1'), 'http://127.0.0.1:11434/v1');
  });

  it('cleans every URL quoted in a message', () => {
    assert.equal(hideUrlSecrets('Request cannot be constructed from a URL that includes credentials: http://u:sk-1@h:1/v1?key=sk-2%2Fchat'), 'Request cannot be constructed from a URL that includes credentials: http://h:1/v1');
    assert.equal(hideUrlSecrets('connect ECONNREFUSED 127.0.0.1:9'), 'connect ECONNREFUSED 127.0.0.1:9');
  });

  it('cleans what does not parse as a URL too', () => {
    assert.equal(publicUrl('//tok@host/v1?key=1'), '//host/v1');
  });
});
