// A small CSV reader for the tests of the operator log's CSV export: RFC 4180 (quoted cells,
// doubled quotes, line breaks inside quotes, CRLF rows, a leading BOM), with any separator, and
// also as Excel reads a file whose separator is not the one it was written with: a quote is
// special only at the start of a field, and after the closing quote the rest of the field is
// taken as it is.

export interface CsvReading {
  /** The character cells are split at (`,` by default; `;` is Excel's in Argentina). */
  separator?: string;
  /** 'rfc' (default): a quote anywhere opens or closes quoting; 'excel': only at a field's start. */
  quotes?: 'rfc' | 'excel';
}

/** The rows of a CSV text, each a list of cells; a trailing line break adds no row. */
export function parseCsv(text: string, { separator = ',', quotes = 'rfc' }: CsvReading = {}): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  /** Excel: the field's characters so far (a quote opens quoting only when there are none). */
  let started = false;
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && (quotes === 'rfc' || !started)) {
      quoted = true;
      started = true;
    } else if (char === separator) {
      row.push(cell);
      cell = '';
      started = false;
    } else if (char === '\r' && body[i + 1] === '\n') {
      continue;
    } else if (char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      started = false;
    } else {
      cell += char;
      started = true;
    }
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The rows as objects keyed by the header row's names. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((cells) => Object.fromEntries((header ?? []).map((name, index) => [name, cells[index] ?? ''])));
}
