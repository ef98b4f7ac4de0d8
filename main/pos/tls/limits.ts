/** macOS refuses TLS server certificates valid for longer, also under locally trusted roots (days). */
export const MAX_SERVER_DAYS = 825;
