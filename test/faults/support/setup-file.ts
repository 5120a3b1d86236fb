// Loaded before every fault-suite file, after test/support/stack.ts: the services under the API are restarted here,
// so a route may answer 500 internal_error (declared in openapi/folio.yaml § x-folio-transport) and the clients retry.
import { expectServerFailures } from '../../support/openapi-check.js';

expectServerFailures();
