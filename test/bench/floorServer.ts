// Benchmark helper: the machine's floor under the devnet's steady submission latency. A server in its own process that
// answers every POST with one stored answer (FLOOR_ANSWER) once it has read and parsed the body as JSON, what any
// JSON-RPC server does before its method runs; on node:http with its default keep-alive, as the devnet serves. The
// benchmark's client, at the devnet's rate with the devnet's requests, then measures what the machine, node:http and
// the client cost without the node's work. Prints one JSON line with its URL; stops on SIGTERM.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = Buffer.from(process.env.FLOOR_ANSWER ?? '', 'utf8');
if (answer.length === 0) throw new Error('floorServer: expected the answer to give in FLOOR_ANSWER, got none');

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('expected a JSON body');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length }).end(answer);
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
});
process.on('SIGTERM', () => process.exit(0));
