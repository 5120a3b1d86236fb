// The peer of the read benchmarks: a Koa app with one JSON route that does nothing, in a process of its own like the
// API, so a figure can be read as a share of what Koa and Node's HTTP server alone reach on this machine in this run.
//
//   node --import tsx bench/bare-koa-server.ts PORT
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  ctx.body = { object: 'ok' };
});
const server = app.listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('listening\n'));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
