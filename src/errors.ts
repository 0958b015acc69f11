/**
 * The closed catalogue of error codes. Each code has one HTTP status; handlers throw
 * `new AppError('OFFER_NOT_FOUND')` and the one error handler renders the envelope.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  NO_UPDATES: 400,
  INVALID_CART_TYPE: 400,
  INVALID_NAME: 400,
  INVALID_REQUEST: 400,
  INVALID_TOKEN: 400,
  NO_EMAIL: 400,
  ALREADY_VERIFIED: 400,
  INVALID_SIGNATURE: 400,
  INVALID_ORDER: 400,
  INVALID_MESSAGE: 400,
  NOT_OWNER: 400,
  UNSUPPORTED_CURRENCY: 400,
  UNSUPPORTED_ORDER_TYPE: 400,
  BAD_REQUEST: 400,
  INVALID_ADDRESS: 400,
  SELF_BROKER_NOT_ALLOWED: 400,
  BROKER_FEE_TOO_LOW: 400,
  BROKER_FEE_TOO_HIGH: 400,
  INVALID_FEE: 400,
  LIST_LIMIT_REACHED: 400,
  CANNOT_DELETE_DEFAULT: 400,
  CANNOT_RENAME_DEFAULT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  OFFER_NOT_FOUND: 404,
  LISTING_NOT_FOUND: 404,
  ORDER_NOT_FOUND: 404,
  ENS_NAME_NOT_FOUND: 404,
  NAME_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  CART_ITEM_NOT_FOUND: 404,
  PROFILE_NOT_FOUND: 404,
  LIST_NOT_FOUND: 404,
  ENS_NAMES_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  DUPLICATE_ORDER: 409,
  INVALID_STATE: 409,
  ALREADY_IN_CART: 409,
  DUPLICATE_LIST_NAME: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  VERIFICATION_FAILED: 500,
  RESEND_FAILED: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

const DEFAULT_MESSAGE: Partial<Record<ErrorCode, string>> = {
  UNAUTHORIZED: 'Authentication required',
  FORBIDDEN: 'You are not allowed to do this',
  NOT_FOUND: 'Not found',
  INTERNAL_ERROR: 'Internal server error',
  RATE_LIMITED: 'Too many requests, slow down',
  SERVICE_UNAVAILABLE: 'Service unavailable',
  BAD_GATEWAY: 'Upstream request failed',
  HEADERS_TOO_LARGE: 'Request headers (or the URL) are too large',
  REQUEST_TIMEOUT: 'The request took too long to arrive',
};

export interface ErrorDetails {
  /** The request field at fault, as a path such as `body.status` or `query.limit`. */
  field?: string;
  [key: string]: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message?: string, details?: ErrorDetails) {
    super(message ?? DEFAULT_MESSAGE[code] ?? code.toLowerCase().replace(/_/g, ' '));
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.details = details;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
