// Shared by the provider tests: a small request and "this call must fail with a ProviderError".

import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { ProviderError, type ModelRequest } from '../../src/core/providers/types';

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { system: 'You are agent A.', messages: [{ role: 'user', content: 'What is 2+2?' }], tools: [], ...overrides };
}

export async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${inspect(error)}`);
    return error;
  }
  assert.fail('expected the call to reject');
}
