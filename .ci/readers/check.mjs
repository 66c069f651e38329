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
//   - numbers are numbers: no text column whose values all parse as numbers.
// Usage: node check.mjs DIR
import { DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
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
console.log(`${checked} outputs read by DuckDB and apache-arrow; ${failures} problems`);
console.log(`outputs: ${checked - failedOutputs} read alike by every reader, ${failedOutputs} with problems`);
process.exit(failures ? 1 : 0);
