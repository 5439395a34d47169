/** Typed errors the API maps to the response envelope (STYLE.md: one error handler). */
export type FieldError = { field: string; message: string };

export class DomainError extends Error {
  constructor(
    message: string,
    readonly errorCode: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 422 with per-field messages. */
export class ValidationError extends DomainError {
  constructor(
    readonly errors: FieldError[],
    message = 'Validation failed',
  ) {
    super(message, 'VALIDATION_ERROR');
  }
}

/** 404. */
export class NotFoundError extends DomainError {
  constructor(message = 'Resource not found') {
    super(message, 'NOT_FOUND');
  }
}

/** 409: a business conflict (e-mail taken, stale If-Match). */
export class ConflictError extends DomainError {
  constructor(message: string, errorCode = 'CONFLICT') {
    super(message, errorCode);
  }
}

/** 401. */
export class UnauthorizedError extends DomainError {
  constructor(message = 'Unauthorized') {
    super(message, 'UNAUTHORIZED');
  }
}

/** 403. */
export class ForbiddenError extends DomainError {
  constructor(message = 'Access forbidden', errorCode = 'FORBIDDEN') {
    super(message, errorCode);
  }
}

/** 400: a request that is well-formed but cannot be honoured (e.g. a used verification link). */
export class BadRequestError extends DomainError {
  constructor(message: string, errorCode = 'BAD_REQUEST') {
    super(message, errorCode);
  }
}
