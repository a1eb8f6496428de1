// The mocha hooks the tool-forcing tests share: llama-server with SmolLM2 and the tool-forcing proxy in front of it,
// started before the suite and closed after it (the proxy first), whatever the tests did.

import { startLlamaServer, type LlamaServer, type LlamaServerOptions } from '../../helpers/llama-server';
import { startToolForcingProxy, type ToolForcingProxy } from './tool-forcing-proxy';

export interface ForcedServer {
  server: LlamaServer;
  /** Point the team here: every request that offers tools gets a tool call. */
  proxy: ToolForcingProxy;
}

/** Registers the hooks; the returned function gives the running pair inside a test. */
export function useForcedServer(options: LlamaServerOptions = {}): () => ForcedServer {
  let server: LlamaServer | undefined;
  let proxy: ToolForcingProxy | undefined;
  before(async () => {
    server = await startLlamaServer(options);
    proxy = await startToolForcingProxy(server);
  });
  after(async () => {
    await proxy?.close();
    await server?.close();
  });
  return () => {
    if (!server || !proxy) throw new Error('the server is not running (its before hook failed)');
    return { server, proxy };
  };
}
