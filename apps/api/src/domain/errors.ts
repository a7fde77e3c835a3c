import { validationFailure } from '@review-desk/shared';
import type { z } from 'zod';

// The typed error model: the domain throws AppError with a status from the seed's table (§7) and
// a message from shared MESSAGES; one handler (http/errors.ts) turns it into the envelope.

export class AppError extends Error {
  readonly status: number;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    message: string,
    options: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.fields = options.fields;
    this.headers = options.headers;
  }

  /** 400 from a zod error, in the shared validationFailure wording. */
  static validation(error: z.ZodError): AppError {
    const envelope = validationFailure(error);
    return new AppError(400, envelope.error, envelope.fields ? { fields: envelope.fields } : {});
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
