import assert from 'node:assert/strict';
import { isInside } from './paths';

describe('isInside(root, p)', () => {
  it('the root itself and everything below it are inside', () => {
    assert.equal(isInside('/a/b', '/a/b'), true);
    assert.equal(isInside('/a/b', '/a/b/c/d'), true);
    assert.equal(isInside('/a/b/', '/a/b/c'), true);
    assert.equal(isInside('/', '/etc'), true);
  });

  it('parents, siblings sharing a prefix and climbs are outside', () => {
    assert.equal(isInside('/a/b', '/a'), false);
    assert.equal(isInside('/a/b', '/a/bc'), false);
    assert.equal(isInside('/a/b', '/a/b/../c'), false);
    assert.equal(isInside('/a/b/c', '/a/b'), false, 'the argument order matters: root first');
  });

  it('a name that only starts with two dots stays inside', () => {
    assert.equal(isInside('/a/b', '/a/b/..x'), true);
  });
});
