// A dependency "coming back": a TCP relay opened on `port` to a service of the stack, for tests of processes that start
// before what they need is reachable. `close` stops it and cuts what it carries.
import { createServer, connect, type Socket } from 'node:net';

export async function openRelay(port: number, target: string): Promise<{ close(): Promise<void> }> {
  const { hostname, port: targetPort } = new URL(target.includes('://') ? target : `tcp://${target}`);
  const sockets = new Set<Socket>();
  const relay = createServer((incoming) => {
    const outgoing = connect(Number(targetPort), hostname);
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    incoming.pipe(outgoing).pipe(incoming);
  });
  await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
  return {
    close: () =>
      new Promise((resolve) => {
        relay.close(() => resolve());
        sockets.forEach((socket) => socket.destroy());
      }),
  };
}
