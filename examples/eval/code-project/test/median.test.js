const assert = require('node:assert/strict');
const { median } = require('../src/median');
assert.equal(median([3, 1, 2]), 2);
assert.equal(median([4, 1, 3, 2]), 2.5);
const input = [3, 1, 2];
median(input);
assert.deepEqual(input, [3, 1, 2], 'median() must not change its argument');
console.log('median: 3 passing');
