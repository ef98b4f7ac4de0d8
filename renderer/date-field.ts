/**
 * A date the cashier types as a Brazilian reads it — dd/mm/aaaa — in a plain text field, whatever
 * the browser's own language: a `type="date"` field draws its date in the browser's locale
 * (mm/dd/yyyy on an American Chromium), which the window cannot change. The field takes digits
 * (the slashes come by themselves as they are typed) and is read back as an ISO date
 * ("2026-03-10"), the form the rest of the window works with; a date that is not on the calendar
 * is none.
 */

const TYPED_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const DIGITS_ONLY = /^\d{8}$/;

/** "2026-03-10" → "10/03/2026". */
export function typedDate(iso: string): string {
  const [year = '', month = '', day = ''] = iso.split('-');
  return `${day}/${month}/${year}`;
}

/**
 * "10/03/2026", "1/3/2026" or "10032026" → "2026-03-10"; null for anything else, 31/02 included.
 * Years before 2000 are no sale of Pinbridge's: refused as a typing slip.
 */
export function isoDate(typed: string): string | null {
  const text = typed.trim();
  const compact = DIGITS_ONLY.test(text) ? `${text.slice(0, 2)}/${text.slice(2, 4)}/${text.slice(4)}` : text;
  const match = TYPED_DATE.exec(compact);
  if (match === null) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 2000 || month < 1 || month > 12 || day < 1) return null;
  // The last day of the month, by the calendar (29/02 only in a leap year).
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > lastDay) return null;
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * What the field shows as it is typed: "10" → "10/", "1/" → "01/", "10/3/" → "10/03/",
 * "10032026" → "10/03/2026". Digits past a full day or month go on into the next part; anything
 * but digits and slashes is dropped.
 */
export function maskDate(typed: string): string {
  const parts: string[] = [''];
  for (const char of typed) {
    const last = parts.length - 1;
    const part = parts[last] ?? '';
    if (char === '/') {
      if (last < 2 && part !== '') {
        parts[last] = part.padStart(2, '0');
        parts.push('');
      }
    } else if (/\d/.test(char)) {
      if (last < 2 && part.length === 2) parts.push(char);
      else if (last < 2 || part.length < 4) parts[last] = part + char;
    }
  }
  const last = parts.length - 1;
  // The slash after a whole day or month comes by itself.
  return parts.join('/') + (last < 2 && parts[last]?.length === 2 ? '/' : '');
}

/**
 * Makes a text field a dd/mm/aaaa field: its slashes typed for the cashier while digits are added
 * at its end (an edit in the middle is left as typed, and read when the form is sent).
 */
export function dateField(input: HTMLInputElement): void {
  input.addEventListener('input', (event) => {
    const typing = event instanceof InputEvent && event.inputType.startsWith('insert');
    const atEnd = input.selectionStart === input.value.length;
    if (!typing || !atEnd) return;
    const masked = maskDate(input.value);
    if (masked !== input.value) input.value = masked;
  });
}
