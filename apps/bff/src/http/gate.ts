import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AppError, sendError } from '@review-desk/server/errors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { RequestContext } from './context.ts';

// A security gate is one plain function: a request in, a refusal or nothing out. It may set
// response headers (the request id, the security headers, CORS) and note what it learnt on the
// request's context (the route's name, the session), and it may be asynchronous (a session read
// from a database). Every way into the server runs the same gates in the order gates.ts declares;
// nothing else in the BFF decides whether a request may pass.

/** Node's request (Express's is one) once its context exists; gates use Node's API only. */
export type GateRequest = IncomingMessage & { ctx: RequestContext };

/** A refusal (answered as the error envelope with its status and headers), or null to pass. */
export type Verdict = AppError | null;

export type Gate = (req: GateRequest, res: ServerResponse) => Verdict | Promise<Verdict>;

/**
 * Runs the gates in order and settles with the first refusal, or null when every gate passed. It
 * stays synchronous while the gates are (a session found in the cache costs no promise); from the
 * first gate that returns a promise on, the rest run after it.
 */
export function runGates(
  gates: readonly Gate[],
  req: GateRequest,
  res: ServerResponse,
  from = 0,
): Verdict | Promise<Verdict> {
  for (let i = from; i < gates.length; i++) {
    const verdict = (gates[i] as Gate)(req, res);
    if (verdict instanceof Promise) {
      return verdict.then((settled) => settled ?? runGates(gates, req, res, i + 1));
    }
    if (verdict !== null) return verdict;
  }
  return null;
}

/**
 * Runs gates, then `pass` if they all passed; a refusal is answered with its envelope. Errors
 * (a gate or `pass` throwing or rejecting) go to `fail`, the error handler of the way in.
 */
export function throughGates(
  gates: readonly Gate[],
  req: GateRequest,
  res: ServerResponse,
  pass: () => unknown,
  fail: (error: unknown) => void,
): void {
  const settle = (verdict: Verdict) => {
    if (verdict !== null) {
      sendError(res, verdict);
      return;
    }
    const result = pass();
    if (result instanceof Promise) result.then(undefined, fail);
  };
  try {
    const verdict = runGates(gates, req, res);
    if (verdict instanceof Promise) verdict.then(settle).then(undefined, fail);
    else settle(verdict);
  } catch (error) {
    fail(error);
  }
}

/** The gates as one Express middleware: a refusal is answered here, a pass goes on to `next`. */
export function gateway(gates: readonly Gate[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) =>
    throughGates(gates, req, res, () => next(), next);
}
