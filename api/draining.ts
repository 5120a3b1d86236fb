// Set once when the API process begins its graceful shutdown (api/server.ts): /readyz answers 503 from then on, so a
// load balancer stops sending new requests while those in flight finish.
let draining = false;

export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}
