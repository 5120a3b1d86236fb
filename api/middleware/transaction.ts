// The one way a request writes: a route that declares transaction() runs its handler inside one transaction, handed
// to it as ctx.state.unit; the workflow starts it asked for go out after the commit (workflows/client.ts). A handler
// that throws rolls everything back, so a request with several keys commits all of them or none.
import type { Middleware } from 'koa';
import type { RunInTransaction, UnitOfWork } from '../../domain/unit-of-work.js';

declare module 'koa' {
  interface DefaultState {
    unit?: UnitOfWork;
  }
}

export function transaction({ runInTransaction }: { runInTransaction: RunInTransaction }): Middleware {
  return (ctx, next) =>
    runInTransaction(async (unit) => {
      ctx.state.unit = unit;
      try {
        await next();
      } finally {
        ctx.state.unit = undefined;
      }
    });
}

/** The request's unit of work; a route without transaction() has none, and that is a programming error. */
export function unitOf(state: { unit?: UnitOfWork }): UnitOfWork {
  if (!state.unit) throw new Error('this route writes without transaction() in its middleware chain');
  return state.unit;
}
