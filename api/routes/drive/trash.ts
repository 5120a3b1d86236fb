// Placeholder router, filled in by its own change.
import Router from '@koa/router';

export const trashRouter = new Router({ prefix: '/v1/drive' });
