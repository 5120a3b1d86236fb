// The local cluster's one entry point (deploy/local/cluster.ts): a plain HTTP reverse proxy on loopback that hands each
// request to the next Folio API in turn, as a load balancer would, and to another one when an API refuses the
// connection (it is restarting). Bodies stream both ways; nothing is buffered or logged.
// Run: node --import tsx deploy/local/entry-proxy.ts <listen port> <upstream port> <upstream port> ...
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';

const [listenPort, ...upstreams] = process.argv.slice(2).map(Number);
if (!listenPort || upstreams.length === 0) {
  process.stderr.write('usage: entry-proxy.ts <listen port> <upstream port>...\n');
  process.exit(2);
}

let next = 0;

function forward(req: IncomingMessage, res: ServerResponse, hasBody: boolean, tries: number): void {
  const port = upstreams[next++ % upstreams.length]!;
  const upstream = request(
    { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    // A refused connection sent nothing: another API may take the request. Anything else may have been acted on.
    if (error.code === 'ECONNREFUSED' && tries > 1 && !res.headersSent)
      return forward(req, res, hasBody, tries - 1);
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'bad_gateway', message: 'no Folio API answered' } }));
  });
  if (hasBody) req.pipe(upstream);
  else upstream.end();
}

createServer((req, res) => {
  // A body can be sent once only: requests with one are not retried on another API.
  const hasBody =
    req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  forward(req, res, hasBody, hasBody ? 1 : upstreams.length);
}).listen(listenPort, '127.0.0.1');
