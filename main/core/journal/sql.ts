/**
 * The journal's SQL text: the payment row's columns, the inserts, the UPDATE of just the changed
 * columns, the queries recovery and the lists run, and the filters of `list` and `records`.
 */
import { UNDO_STATES } from '../states.js';
import type { ListQuery } from './record.js';
import { PAYMENT_COLUMNS } from './rows.js';

export const LIST_DEFAULT_LIMIT = 100;
export const LIST_MAX_LIMIT = 1000;
/** Payments per page of `records`. */
export const RECORDS_PAGE = 500;

export const COLUMNS = PAYMENT_COLUMNS.join(', ');
export const INSERT_PAYMENT = `INSERT INTO payments (${COLUMNS}) VALUES (${PAYMENT_COLUMNS.map((c) => `@${c}`).join(', ')})`;
/**
 * The UPDATE of just the columns a move changed: SQLite rewrites an index only when its columns
 * are assigned, and a move rarely touches the reference, the transaction id or finished_at — so
 * most commits write the row and its event, not four indexes besides.
 */
export function updateSql(columns: readonly string[]): string {
  return `UPDATE payments SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`;
}
export const INSERT_EVENT = `INSERT INTO events (payment_id, seq, at, from_state, to_state, note)
  VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE payment_id = ?), ?, ?, ?, ?)`;
export const PAYMENT_BY_ID = `SELECT ${COLUMNS} FROM payments WHERE id = ?`;
/** Every query of unfinished rows says `finished_at IS NULL` so SQLite picks the partial index. */
export const UNFINISHED_SQL = `SELECT ${COLUMNS} FROM payments WHERE finished_at IS NULL ORDER BY created_at, rowid`;
const UNDO_STATE_LIST = [...UNDO_STATES].map((s) => `'${s}'`).join(', ');
export const PENDING_CONFIRMATIONS_SQL = `SELECT ${COLUMNS} FROM payments WHERE finished_at IS NULL AND state = 'awaiting_confirmation' ORDER BY created_at, rowid`;
export const PENDING_UNDOS_SQL = `SELECT ${COLUMNS} FROM payments WHERE finished_at IS NULL AND state IN (${UNDO_STATE_LIST}) ORDER BY created_at, rowid`;

/**
 * A field inside a JSON column, NULL when the column is not valid JSON: json_extract throws on a
 * damaged row ("malformed JSON"), which would fail the whole query; this way the damaged row just
 * does not match, and the lists that read it still report it (onCorrupt). CASE evaluates lazily,
 * so json_extract never sees the damaged text.
 */
function jsonField(column: 'card_json' | 'authorization_json', path: string): string {
  return `(CASE WHEN json_valid(${column}) THEN json_extract(${column}, '${path}') END)`;
}

/** The WHERE clause (empty when nothing is asked) and its named parameters for a list's query. */
export function listFilter(query: ListQuery): { where: string; params: Record<string, unknown> } {
  const conditions: string[] = [];
  const params: Record<string, unknown> = {};
  if (query.from !== undefined) {
    conditions.push('created_at >= @from');
    params.from = query.from;
  }
  if (query.to !== undefined) {
    conditions.push('created_at < @to');
    params.to = query.to;
  }
  if (query.terminal !== undefined) {
    conditions.push('terminal = @terminal');
    params.terminal = query.terminal;
  }
  if (query.owner !== undefined) {
    conditions.push('owner = @owner');
    params.owner = query.owner;
  }
  if (query.amount !== undefined) {
    conditions.push('amount = @amount');
    params.amount = query.amount;
  }
  if (query.nsu !== undefined) {
    conditions.push(`${jsonField('authorization_json', '$.nsu')} = @nsu`);
    params.nsu = query.nsu;
  }
  if (query.authorizationCode !== undefined) {
    conditions.push(`upper(${jsonField('authorization_json', '$.authorizationCode')}) = upper(@authorizationCode)`);
    params.authorizationCode = query.authorizationCode;
  }
  if (query.cardLast4 !== undefined) {
    conditions.push(`substr(${jsonField('card_json', '$.maskedPan')}, -4) = @cardLast4`);
    params.cardLast4 = query.cardLast4;
  }
  if (query.states !== undefined) {
    if (query.states.length === 0) conditions.push('0');
    else {
      const names = query.states.map((state, index) => {
        params[`state${index}`] = state;
        return `@state${index}`;
      });
      conditions.push(`state IN (${names.join(', ')})`);
    }
  }
  return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, params };
}
