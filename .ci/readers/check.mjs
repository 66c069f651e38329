// Reads every data file benchtrim wrote into DIR with readers that are not
// benchtrim's: DuckDB (CSV and Parquet) and the JavaScript Arrow library
// (Arrow IPC). For each output written as NAME.csv, NAME.arrow and
// NAME.parquet it asserts:
//   - every reader opens the file, and all three have the same rows (and the
//     row count in DIR/rows.txt, "NAME N" lines, where given);
//   - the same snake_case column names;
//   - the same column types: Parquet and Arrow exactly, CSV as DuckDB infers
//     them (integers may infer as BIGINT for a DOUBLE column, list columns
//     are ";"-joined text, all-null columns any type);
//   - numbers are numbers: no text column whose values all parse as numbers;
//   - the same values: the Parquet file read by two more readers (hyparquet,
//     in JavaScript, with hyparquet-compressors for zstd, and parquet-wasm,
//     Rust's arrow-rs) holds the rows of
//     the Arrow file (written by another writer) value for value, as
//     multisets (the by-shard table orders its rows by key hash).
// Usage: node check.mjs DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import * as parquetWasm from 'parquet-wasm';
import { readFileSync, readdirSync, existsSync } from 'fs';
import { join } from 'path';

const dir = process.argv[2];
const db = await DuckDBInstance.create(':memory:');
const con = await db.connect();
let failures = 0, checked = 0, failedOutputs = 0;
const fail = (msg) => { failures++; console.log(`FAIL ${msg}`); };
const q = (p) => `'${p.replaceAll("'", "''")}'`;

async function duck(sql) { return (await con.runAndReadAll(sql)).getRowObjects(); }
async function describe(from) {
  return (await duck(`DESCRIBE SELECT * FROM ${from}`)).map((r) => [r.column_name, r.column_type]);
}
async function count(from) { return Number((await duck(`SELECT count(*) AS n FROM ${from}`))[0].n); }

// arrowType maps an arrow-js type to DuckDB's name for it.
function arrowType(t) {
  const s = String(t);
  // A dictionary-encoded string column (the table's string columns) is
  // text to DuckDB, which reads it as VARCHAR.
  const map = { Int64: 'BIGINT', Float64: 'DOUBLE', Utf8: 'VARCHAR', 'Dictionary<Int32, Utf8>': 'VARCHAR', Bool: 'BOOLEAN', Int32: 'INTEGER', 'List<Int64>': 'BIGINT[]', 'List<Utf8>': 'VARCHAR[]' };
  return map[s] ?? s;
}

// norm is a value as text every reader agrees on: integers of any width
// and doubles (-0 and NaN spelt out), strings, booleans, null, and lists.
function norm(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return Array.from(v, norm);
  if (typeof v.toArray === 'function') return Array.from(v.toArray(), norm);
  return `?${typeof v}:${v}`;
}

// arrowRows is t's rows as sorted JSON lines of normalised values.
function arrowRows(t) {
  const cols = t.schema.fields.map((f, i) => t.getChildAt(i));
  const rows = [];
  for (let i = 0; i < t.numRows; i++) rows.push(JSON.stringify(cols.map((c) => norm(c.get(i)))));
  return rows.sort();
}

// sameRows compares two readers' sorted rows; it reports the first that differs.
function sameRows(name, what, a, b) {
  if (a.length !== b.length) { fail(`${name}: ${what}: ${a.length} against ${b.length} rows`); return; }
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) { fail(`${name}: ${what}: rows differ:\n  ${a[i].slice(0, 300)}\n  ${b[i].slice(0, 300)}`); return; }
  }
}

const expected = new Map();
if (existsSync(join(dir, 'rows.txt'))) {
  for (const line of readFileSync(join(dir, 'rows.txt'), 'utf8').split('\n')) {
    const [name, n] = line.trim().split(/\s+/);
    if (name) expected.set(name, Number(n));
  }
}

const names = [...new Set(readdirSync(dir).filter((f) => f.endsWith('.parquet')).map((f) => f.slice(0, -8)))].sort();
for (const name of names) {
  const before = failures;
  await checkOne(name);
  if (failures > before) failedOutputs++;
}

async function checkOne(name) {
  const pq = join(dir, name + '.parquet'), ar = join(dir, name + '.arrow'), csv = join(dir, name + '.csv');
  for (const p of [ar, csv]) if (!existsSync(p)) fail(`${name}: ${p} missing`);
  let pqTypes, pqRows, arTypes, arRows, csvTypes, csvRows;
  try {
    pqTypes = await describe(`read_parquet(${q(pq)})`);
    pqRows = await count(`read_parquet(${q(pq)})`);
  } catch (e) { fail(`${pq}: DuckDB cannot read it: ${e.message}`); return; }
  try {
    const t = tableFromIPC(readFileSync(ar));
    arRows = t.numRows;
    arTypes = t.schema.fields.map((f) => [f.name, arrowType(f.type)]);
  } catch (e) { fail(`${ar}: apache-arrow cannot read it: ${e.message}`); return; }
  try {
    const from = `read_csv(${q(csv)}, header=true, sample_size=-1)`;
    csvTypes = await describe(from);
    csvRows = await count(from);
  } catch (e) { fail(`${csv}: DuckDB cannot read it: ${e.message}`); return; }
  checked++;
  const failuresBefore = failures;
  if (pqRows !== arRows || pqRows !== csvRows) fail(`${name}: rows parquet ${pqRows}, arrow ${arRows}, csv ${csvRows}`);
  if (expected.has(name) && expected.get(name) !== pqRows) fail(`${name}: ${pqRows} rows, benchtrim said ${expected.get(name)}`);
  if (pqRows === 0) fail(`${name}: no rows`);
  const cols = (ts) => ts.map((t) => t[0]).join(',');
  if (cols(pqTypes) !== cols(arTypes) || cols(pqTypes) !== cols(csvTypes)) {
    fail(`${name}: column names differ:\n  parquet ${cols(pqTypes)}\n  arrow   ${cols(arTypes)}\n  csv     ${cols(csvTypes)}`);
    return;
  }
  for (let i = 0; i < pqTypes.length; i++) {
    const [col, pt] = pqTypes[i];
    if (!/^[a-z][a-z0-9_]*$/.test(col)) fail(`${name}.${col}: not a snake_case name`);
    if (arTypes[i][1] !== pt) fail(`${name}.${col}: parquet ${pt}, arrow ${arTypes[i][1]}`);
    const ct = csvTypes[i][1];
    const nonNull = Number((await duck(`SELECT count(${JSON.stringify(col)}) AS n FROM read_parquet(${q(pq)})`))[0].n);
    const ok = ct === pt || nonNull === 0 || (pt === 'DOUBLE' && ct === 'BIGINT') ||
      (pt === 'BIGINT[]' && (ct === 'VARCHAR' || ct === 'BIGINT')) || (pt === 'VARCHAR[]' && ct === 'VARCHAR') || (pt === 'BIGINT' && ct === 'DOUBLE') || (pt === 'INTEGER' && ct === 'BIGINT');
    if (!ok) fail(`${name}.${col}: parquet ${pt}, csv infers ${ct}`);
    if (pt === 'VARCHAR' && nonNull > 0) {
      const r = await duck(`SELECT count(*) AS n FROM read_parquet(${q(pq)}) WHERE ${JSON.stringify(col)} <> '' AND TRY_CAST(${JSON.stringify(col)} AS DOUBLE) IS NULL`);
      const text = Number(r[0].n);
      const filled = Number((await duck(`SELECT count(*) AS n FROM read_parquet(${q(pq)}) WHERE ${JSON.stringify(col)} <> ''`))[0].n);
      if (filled > 0 && text === 0 && !['version', 'params', 'project', 'benchmark', 'base_label', 'test_label', 'config'].includes(col)) {
        fail(`${name}.${col}: a text column whose ${filled} values are all numbers`);
      }
    }
  }
  if (failures > failuresBefore) return;
  let valuesChecked = 0;
  try {
    const want = arrowRows(tableFromIPC(readFileSync(ar)));
    const bytes = readFileSync(pq);
    const rs = arrowRows(tableFromIPC(parquetWasm.readParquet(new Uint8Array(bytes)).intoIPCStream()));
    sameRows(name, 'parquet-wasm against the .arrow file', rs, want);
    const names = tableFromIPC(readFileSync(ar)).schema.fields.map((f) => f.name);
    const objs = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), compressors });
    const hy = objs.map((o) => JSON.stringify(names.map((c) => norm(o[c])))).sort();
    sameRows(name, 'hyparquet against the .arrow file', hy, want);
    valuesChecked = want.length;
  } catch (e) { fail(`${pq}: ${e.message}`); return; }
  if (failures > failuresBefore) return;
  console.log(`ok ${name}: the values of ${valuesChecked} rows alike in parquet-wasm, hyparquet and apache-arrow`);
  console.log(`ok ${name}: ${pqRows} rows, ${pqTypes.length} columns (${pqTypes.map((t) => t[1]).join(' ')})`);
}
// The table ingested with --by-shard (rows in key-hash order, row groups by
// shard range) holds the same rows as the plain one, in DuckDB's eyes.
const plain = join(dir, 'table.parquet'), byShard = join(dir, 'table-by-shard.parquet');
if (existsSync(plain) && existsSync(byShard)) {
  for (const [a, b] of [[plain, byShard], [byShard, plain]]) {
    const r = await duck(`SELECT count(*) AS n FROM (SELECT * FROM read_parquet(${q(a)}) EXCEPT ALL SELECT * FROM read_parquet(${q(b)}))`);
    if (Number(r[0].n) !== 0) fail(`${a}: ${r[0].n} rows not in ${b}`);
  }
  const g = await duck(`SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata(${q(byShard)})`);
  console.log(`ok table-by-shard.parquet: the rows of table.parquet, in ${g[0].n} row groups`);
}
if (checked === 0) fail(`no NAME.parquet/.arrow/.csv triples in ${dir}`);
console.log(`${checked} outputs read by DuckDB, apache-arrow, parquet-wasm and hyparquet; ${failures} problems`);
console.log(`outputs: ${checked - failedOutputs} read alike by every reader, ${failedOutputs} with problems`);
process.exit(failures ? 1 : 0);
