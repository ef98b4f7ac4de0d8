/**
 * The settings file as a support bundle carries it: every secret replaced by "(set)" or
 * "(not set)", so a support desk sees that a token or passphrase is there without seeing it.
 * Secret: a field named like a token, password, passphrase, secret, key or authorization
 * (telemetry.bearer_token, a certificate's key file, a future api_key…), and every value of a
 * `headers` map (telemetry.headers carries credentials). Booleans and numbers are kept: they are
 * switches (api.capabilities.idempotency_key), not credentials.
 */
const SECRET_FIELD = /(^|_)(token|password|passphrase|secret|key|key_file|authorization|credentials?)$/i;

const SET = '(set)';
const NOT_SET = '(not set)';

function hidden(value: unknown): string {
  return value === undefined || value === null || value === '' ? NOT_SET : SET;
}

function redact(value: unknown, inHeaders: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => redact(item, inHeaders));
  if (typeof value !== 'object' || value === null) return inHeaders ? hidden(value) : value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      if (inHeaders) return [key, hidden(item)];
      if (key.toLowerCase() === 'headers') return [key, redact(item, true)];
      if (SECRET_FIELD.test(key) && typeof item !== 'boolean' && typeof item !== 'number') return [key, hidden(item)];
      return [key, redact(item, false)];
    }),
  );
}

/** A copy of the settings JSON with its secrets replaced. */
export function redactSettings(json: unknown): unknown {
  return redact(json, false);
}
