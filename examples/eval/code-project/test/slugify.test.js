const assert = require('node:assert/strict');
const { slugify } = require('../src/slugify');
assert.equal(slugify('Hello, World!'), 'hello-world');
assert.equal(slugify('  Multi-Agent   Scaling  '), 'multi-agent-scaling');
assert.equal(slugify('v2.0 release'), 'v2-0-release');
console.log('slugify: 3 passing');
