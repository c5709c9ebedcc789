// Reads CSV back for the export tests (RFC 4180 quoting, CRLF or LF line ends), written apart from the code under
// test so that a quoting mistake in the writer cannot hide in a matching mistake in the reader.

/** The records of a CSV text, the header first. Throws on an unterminated quoted field. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
    i++;
  }
  if (quoted) throw new Error('a quoted field is left open at the end of the text');
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}
