// Placeholder router, filled in by its own change.
import Router from '@koa/router';

export const sharingRouter = new Router({ prefix: '/v1/drive' });
