import { createServer, type Server } from 'node:http';

export type RpcHandler = (method: string, params: unknown[]) => unknown;

export interface RpcServer {
  url: string;
  calls: { method: string; params: unknown[] }[];
  close(): Promise<void>;
}

/**
 * A JSON-RPC server on 127.0.0.1 for tests: `handler` answers each call (throw to send a JSON-RPC
 * error). Batches are supported, as viem sends them.
 */
export async function startJsonRpcServer(handler: RpcHandler): Promise<RpcServer> {
  const calls: RpcServer['calls'] = [];
  const answer = (req: { id: unknown; method: string; params?: unknown[] }) => {
    calls.push({ method: req.method, params: req.params ?? [] });
    try {
      return { jsonrpc: '2.0', id: req.id, result: handler(req.method, req.params ?? []) };
    } catch (e) {
      return { jsonrpc: '2.0', id: req.id, error: { code: -32000, message: e instanceof Error ? e.message : String(e) } };
    }
  };
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const body = JSON.parse(raw);
      const out = Array.isArray(body) ? body.map(answer) : answer(body);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
