import assert from 'node:assert/strict';
import { join } from 'node:path';
import { configFileFor } from './config-file';

describe('configFileFor', () => {
  const root = '/work/repo';
  const project = join(root, '.massgen', 'config.yaml');
  const has = (...paths: string[]) => (p: string) => paths.includes(p);

  it('the setting wins, relative to the workspace; an absolute path as written', () => {
    assert.equal(configFileFor('team.yaml', { root, trusted: true, exists: has(project) }), join(root, 'team.yaml'));
    assert.equal(configFileFor('/home/me/team.yaml', { root, trusted: false, exists: has() }), '/home/me/team.yaml');
  });

  it('an untrusted workspace supplies no file: neither a relative setting nor its own config.yaml', () => {
    assert.equal(configFileFor('team.yaml', { root, trusted: false, exists: has(join(root, 'team.yaml')) }), undefined);
    assert.equal(configFileFor('', { root, trusted: false, exists: has(project) }), undefined);
  });

  it('without the setting: the trusted workspace\'s .massgen/config.yaml when there is one', () => {
    assert.equal(configFileFor('', { root, trusted: true, exists: has(project) }), project);
    assert.equal(configFileFor('  ', { root, trusted: true, exists: has() }), undefined);
    assert.equal(configFileFor('', { root: undefined, trusted: true, exists: has(project) }), undefined);
  });
});
