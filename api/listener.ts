// The API's listening socket and its graceful close: plain HTTP/1.1, or with FOLIO_TLS_CERT/KEY HTTPS serving HTTP/2 and
// HTTP/1.1 on one port (ALPN), its certificate swapped in place on SIGHUP.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  createSecureServer,
  type Http2SecureServer,
  type Http2ServerRequest,
  type Http2ServerResponse,
  type ServerHttp2Session,
} from 'node:http2';
import type { Socket } from 'node:net';
import type { SecureContextOptions } from 'node:tls';

export type RequestHandler = (
  req: IncomingMessage | Http2ServerRequest,
  res: ServerResponse | Http2ServerResponse,
) => void;

export interface ListenerOptions {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  tls?: { certFile: string; keyFile: string };
}

export interface Listener {
  server: Server | Http2SecureServer;
  /** Rereads the certificate and key; new handshakes use them, connections already open keep theirs. */
  reloadCertificate(): void;
  /**
   * Stops accepting connections, asks idle and HTTP/2 connections to close once their requests are answered, and after
   * graceMs destroys whatever is still open. Resolves when the last connection has closed, with how many were cut.
   */
  close(graceMs: number): Promise<{ cutOff: number }>;
}

function secureContext(tls: { certFile: string; keyFile: string }): SecureContextOptions {
  return { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile), minVersion: 'TLSv1.2' };
}

export function createListener(options: ListenerOptions, handle: RequestHandler): Listener {
  const server: Server | Http2SecureServer = options.tls
    ? createSecureServer({ ...secureContext(options.tls), allowHTTP1: true }, handle)
    : createServer(handle);
  // A client that trickles its headers or its body cannot hold a socket (and a body buffer) forever. Node checks both
  // timeouts on an interval (also for HTTP/1.1 on the HTTP/2 server), so the interval must be well below the shorter.
  Object.assign(server, {
    headersTimeout: options.headersTimeoutMs,
    requestTimeout: Math.max(options.requestTimeoutMs, options.headersTimeoutMs),
    connectionsCheckingInterval: Math.min(1000, Math.ceil(options.headersTimeoutMs / 2)),
    // An idle keep-alive connection is closed after this; a client may reuse it at that very moment and lose its request
    // (EPIPE), and a client whose timers run late (a busy process) sees that often at Node's 5 s default. Above the 60 s
    // idle timeout of common load balancers, as their guides recommend.
    keepAliveTimeout: 65_000,
  });

  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session: ServerHttp2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });

  return {
    server,
    reloadCertificate() {
      if (options.tls) (server as Http2SecureServer).setSecureContext(secureContext(options.tls));
    },
    close(graceMs) {
      return new Promise((resolve) => {
        let cutOff = 0;
        const timer = setTimeout(() => {
          cutOff = sockets.size;
          for (const socket of sockets) socket.destroy();
        }, graceMs);
        server.close(() => {
          clearTimeout(timer);
          resolve({ cutOff });
        });
        // HTTP/1.1: idle keep-alive connections close now; busy ones after their answer (Connection: close, see
        // api/middleware/transport.ts). HTTP/2: GOAWAY, so the client opens no new stream and those open finish.
        (server as Server).closeIdleConnections?.();
        for (const session of sessions) session.close();
      });
    },
  };
}
