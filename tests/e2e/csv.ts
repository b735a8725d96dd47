// A small RFC 4180 reader for the tests of the operator log's CSV export (quoted cells, doubled
// quotes, line breaks inside quotes, CRLF rows, a leading BOM).

/** The rows of a CSV text, each a list of cells; a trailing line break adds no row. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (quoted) {
      if (char === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && body[i + 1] === '\n') {
      continue;
    } else if (char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The rows as objects keyed by the header row's names. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text);
  return rows.map((cells) => Object.fromEntries((header ?? []).map((name, index) => [name, cells[index] ?? ''])));
}
