// The node's side of the HTTP layer: JSON-RPC and REST requests answered by the node in this thread, as text ready for
// the wire. httpServer.ts calls it directly, or httpThread.ts for requests its worker read.
import type { DevnetNode } from '../types.ts';
import type { BackendAnswer, HttpBackend } from './httpServer.ts';
import { createJsonRpcHandler } from './jsonrpc.ts';
import { createRestHandler } from './rest.ts';

/** The HTTP backend of `node`; `log` receives the handlers' unexpected errors (never sent to clients). */
export function nodeBackend(node: DevnetNode, log: (line: string) => void): HttpBackend {
  const jsonRpc = createJsonRpcHandler(node, log);
  const rest = createRestHandler(node, log);
  return {
    async jsonRpc(body: string): Promise<BackendAnswer> {
      return { status: 200, text: JSON.stringify(await jsonRpc(body)) };
    },
    async rest(method: string, path: string, query: string, body: string): Promise<BackendAnswer> {
      const answer = await rest(method, path, new URLSearchParams(query), body);
      return {
        status: answer.status,
        text: JSON.stringify(answer.body),
        ...(answer.headers ? { headers: answer.headers } : {}),
      };
    },
  };
}
