// End-to-end check of `rea mcp` with the MCP TypeScript SDK client (a real, independent client).
// Usage: node scripts/mcp-e2e.mjs [path/to/rea.jar]   (default: rea-cli/target/rea.jar)
// Prints one line per check and ends with the plain line "N passed, M failed"; exits 1 on failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, writeSync, ftruncateSync, closeSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const jar = resolve(process.argv[2] ?? join(root, 'rea-cli', 'target', 'rea.jar'));
const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
const work = mkdtempSync(join(tmpdir(), 'rea-mcp-e2e-'));

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}${detail ? ': ' + detail : ''}`);
  }
}

// A valid little-endian GGUF v3 file: string metadata, 4x4 F32 tensors, then zero padding
// (sparse) up to minSize bytes so a full hash takes a while.
function writeGguf(path, kv, tensors, minSize) {
  const parts = [];
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { const b = Buffer.from(s, 'utf8'); u64(b.length); parts.push(b); };
  parts.push(Buffer.from('GGUF', 'ascii'));
  u32(3); u64(tensors); u64(kv);
  for (let i = 0; i < kv; i++) { str(`test.key.${i}`); u32(8); str(`value-${i}`); }
  for (let i = 0; i < tensors; i++) { str(`blk.${i}.weight`); u32(2); u64(4); u64(4); u32(0); u64(i * 64); }
  const header = Buffer.concat(parts);
  const dataStart = Math.ceil(header.length / 32) * 32;
  const size = Math.max(dataStart + tensors * 64, minSize);
  const fd = openSync(path, 'w');
  writeSync(fd, header);
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}

// One member of a GGUF split set as llama.cpp's gguf-split writes it: split.no and split.count
// UINT16, split.tensors.count INT32, other metadata in the first member only.
function writeSplitMember(path, no, count, totalTensors, firstTensor, tensors, minSize) {
  const parts = [];
  const u16 = (v) => { const b = Buffer.alloc(2); b.writeUInt16LE(v); parts.push(b); };
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); parts.push(b); };
  const i32 = (v) => { const b = Buffer.alloc(4); b.writeInt32LE(v); parts.push(b); };
  const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); parts.push(b); };
  const str = (s) => { const b = Buffer.from(s, 'utf8'); u64(b.length); parts.push(b); };
  parts.push(Buffer.from('GGUF', 'ascii'));
  u32(3); u64(tensors); u64(no === 0 ? 4 : 3);
  if (no === 0) { str('general.architecture'); u32(8); str('llama'); }
  str('split.no'); u32(2); u16(no);
  str('split.count'); u32(2); u16(count);
  str('split.tensors.count'); u32(5); i32(totalTensors);
  for (let i = 0; i < tensors; i++) { str(`blk.${firstTensor + i}.weight`); u32(2); u64(4); u64(4); u32(0); u64(i * 64); }
  const header = Buffer.concat(parts);
  const dataStart = Math.ceil(header.length / 32) * 32;
  const size = Math.max(dataStart + tensors * 64, minSize);
  const fd = openSync(path, 'w');
  writeSync(fd, header);
  ftruncateSync(fd, size);
  closeSync(fd);
  return path;
}

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

const errorOf = (r) => r?.structuredContent?.error ?? {};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  if (!existsSync(jar)) {
    check('rea.jar exists', false, `${jar} not found; build with ./mvnw -B -DskipTests package`);
    return;
  }
  const small = writeGguf(join(work, 'small.gguf'), 3, 5, 0);
  const medium = writeGguf(join(work, 'medium.gguf'), 2, 3, 48 * 1024 * 1024);
  const huge = writeGguf(join(work, 'huge.gguf'), 1, 1, 16 * 1024 * 1024 * 1024);

  // The server signs Evidence with a key it creates in REA_HOME: keep it in the scratch folder.
  const transport = new StdioClientTransport({
    command: java, args: ['-jar', jar, 'mcp'], stderr: 'pipe',
    env: { ...process.env, REA_HOME: join(work, 'rea-home') } });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'rea-e2e', version: '0' });
  const clientErrors = [];
  client.onerror = (e) => clientErrors.push(String(e?.message ?? e));
  await client.connect(transport);
  check('initialize negotiates a protocol version', typeof client.getServerVersion()?.name === 'string');

  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check('tools/list offers the four file tools',
    ['inspect_model_artifact', 'inspect_analysis_view', 'import_evidence_bundle', 'release_evidence'].every((n) => names.includes(n)),
    names.join(','));
  check('every tool has input and output schemas and a description',
    tools.every((t) => t.inputSchema?.type === 'object' && t.outputSchema && (t.description ?? '').length > 200));

  const complete = await client.callTool({ name: 'inspect_model_artifact', arguments: { path: small, detail: 'complete' } });
  const rec = complete.structuredContent ?? {};
  check('complete detail returns the Evidence record',
    !complete.isError && rec.schema === 'rea.evidence.v1' && rec.status === 'complete' && rec.tensors?.length === 5,
    JSON.stringify(rec).slice(0, 300));
  check('text content mirrors the structured content',
    complete.content?.[0]?.type === 'text' && JSON.stringify(JSON.parse(complete.content[0].text)) === JSON.stringify(rec));

  // Summary by default; the complete Evidence stays retained for views.
  const summary = await client.callTool({ name: 'inspect_model_artifact', arguments: { path: small } });
  const sum = summary.structuredContent ?? {};
  check('summary is the default', !summary.isError && sum.kind === 'model-artifact-summary' && sum.counts?.tensors === 5,
    JSON.stringify(sum).slice(0, 300));
  const retained = { kind: 'retained-evidence', evidence_id: sum.parent_evidence_id };
  const page1 = await client.callTool({ name: 'inspect_analysis_view', arguments: {
    source: retained, view: { kind: 'model-artifact', collection: 'tensors', fields: ['name'], limit: 2 } } });
  const p1 = page1.structuredContent ?? {};
  const page2 = await client.callTool({ name: 'inspect_analysis_view', arguments: {
    source: retained, view: { kind: 'model-artifact', collection: 'tensors', fields: ['name'], limit: 2, offset: p1.next_offset } } });
  const p2 = page2.structuredContent ?? {};
  check('views page through retained Evidence',
    p1.kind === 'model-artifact-page' && p1.total_matches === 5 && p1.next_offset === 2
      && p2.rows?.map((r) => r.index).join(',') === '2,3' && p2.rows?.[0]?.name === 'blk.2.weight',
    JSON.stringify(p2).slice(0, 300));
  const withView = await client.callTool({ name: 'inspect_model_artifact', arguments: {
    path: small, view: { collection: 'metadata', keys: ['test.key.1'] } } });
  check('inspect with view returns one page with the summary',
    withView.structuredContent?.page?.rows?.[0]?.value === 'value-1', JSON.stringify(withView.structuredContent).slice(0, 300));
  const inline = await client.callTool({ name: 'inspect_analysis_view', arguments: {
    source: { kind: 'inline', evidence: rec }, view: { kind: 'model-artifact', collection: 'types' } } });
  check('inline Evidence source answers', inline.structuredContent?.rows?.[0]?.type === 'F32'
    && inline.structuredContent?.source?.kind === 'inline', JSON.stringify(inline.structuredContent).slice(0, 300));
  const imported = await client.callTool({ name: 'import_evidence_bundle', arguments: { bundle: { schema: 'rea.bundle.v1', records: [rec] } } });
  check('import_evidence_bundle returns the ids', imported.structuredContent?.evidence_ids?.[0] === rec.evidence_id);
  const released = await client.callTool({ name: 'release_evidence', arguments: { evidence_id: rec.evidence_id } });
  const gone = await client.callTool({ name: 'inspect_analysis_view', arguments: {
    source: { kind: 'retained-evidence', evidence_id: rec.evidence_id }, view: { kind: 'model-artifact', collection: 'types' } } });
  check('release, then the id is unknown_evidence',
    released.structuredContent?.released === true && gone.isError === true && errorOf(gone).constraint === 'unknown_evidence');

  const rel = await client.callTool({ name: 'inspect_model_artifact', arguments: { path: 'relative/model.gguf' } });
  check('relative path is invalid_input/relative_path',
    rel.isError === true && errorOf(rel).code === 'invalid_input' && errorOf(rel).constraint === 'relative_path',
    JSON.stringify(rel.structuredContent));

  const bad = await client.callTool({ name: 'inspect_model_artifact', arguments: { path: small, hash: 'md5' } });
  check('bad argument gets the REA error object', bad.isError === true && errorOf(bad).details?.field === 'hash');

  // Full hash with progress, to completion.
  const progress = [];
  const full = await client.callTool(
    { name: 'inspect_model_artifact', arguments: { path: medium, hash: 'full', detail: 'complete' } },
    undefined,
    { onprogress: (p) => progress.push(p), timeout: 120000 });
  check('full hash returns the file digest', full.structuredContent?.artifact?.sha256 === sha256(medium));
  check('full hash sent progress notifications', progress.length >= 1 && progress.every((p) => p.total > 0),
    `${progress.length} received`);

  // A slow full hash: busy refusal meanwhile, then a real cancel through AbortSignal.
  const controller = new AbortController();
  let firstProgress;
  const started = new Promise((r) => { firstProgress = r; });
  const slow = client.callTool(
    { name: 'inspect_model_artifact', arguments: { path: huge, hash: 'full', detail: 'complete' } },
    undefined,
    { onprogress: () => firstProgress(), signal: controller.signal, timeout: 600000 });
  const slowOutcome = slow.then((r) => ({ result: r }), (e) => ({ error: e }));
  await Promise.race([started, sleep(60000)]);
  const busy = await client.callTool({ name: 'inspect_model_artifact', arguments: { path: small, detail: 'complete' } });
  check('second inspection while one runs is provider_busy',
    busy.isError === true && errorOf(busy).code === 'resource_exhausted' && errorOf(busy).constraint === 'provider_busy',
    JSON.stringify(busy.structuredContent));
  const pong = await client.ping();
  check('other requests keep answering during the hash', pong !== undefined);

  const t0 = Date.now();
  controller.abort('e2e cancel');
  const outcome = await slowOutcome;
  check('the aborted call rejects on the client', outcome.error !== undefined, JSON.stringify(outcome.result ?? {}).slice(0, 200));

  // The server must stop hashing: the slot frees long before 16 GiB could be hashed.
  let after;
  for (let i = 0; i < 100; i++) {
    after = await client.callTool({ name: 'inspect_model_artifact', arguments: { path: small, detail: 'complete' } });
    if (!(after.isError && errorOf(after).constraint === 'provider_busy')) break;
    await sleep(50);
  }
  const freedMs = Date.now() - t0;
  check('notifications/cancelled stopped the running hash', after && !after.isError && freedMs < 5000, `slot free after ${freedMs} ms`);

  await checkSets(client, clientErrors);

  await client.close();
  // The server still answers the cancelled call (a `cancelled` tool error with partial
  // Evidence); this client drops that late response and reports it through onerror.
  const late = clientErrors.find((m) => m.startsWith('Received a response for an unknown message ID'));
  check('the cancelled call was answered with cancelled + partial Evidence',
    late !== undefined && late.includes('"constraint":"cancelled"') && late.includes('"status":"partial"')
      && late.includes('"digest":"unknown"'),
    late ? late.slice(0, 200) : 'no late response seen');
  const parseErrors = clientErrors.filter((m) => !m.startsWith('Received a response for an unknown message ID'))
    .filter((m) => /JSON|parse|Unexpected token|SyntaxError/i.test(m));
  check('stdout carried only protocol (no client parse errors)', parseErrors.length === 0, parseErrors.join(' | '));
}

// inspect_model_set (CONTRACT section 9): summary, a page over members, a page over tensors with
// member, and a cancel during a set's full hash.
async function checkSets(client, clientErrors) {
  const setDir = join(work, 'split');
  mkdirSync(setDir);
  const member = (no) => join(setDir, `tiny-${String(no).padStart(5, '0')}-of-00003.gguf`);
  for (let no = 1; no <= 3; no++) {
    writeSplitMember(member(no), no - 1, 3, 6, (no - 1) * 2, 2, 8 * 1024 * 1024 * 1024);
  }
  const { tools } = await client.listTools();
  check('tools/list offers inspect_model_set', tools.some((t) => t.name === 'inspect_model_set'));
  const sum = await client.callTool({ name: 'inspect_model_set', arguments: { path: member(2) } });
  const s = sum.structuredContent ?? {};
  check('inspect_model_set summary names the set',
    !sum.isError && s.kind === 'model-set-summary' && s.set?.kind === 'gguf_split' && s.set?.member_count === 3
      && s.totals?.tensor_count === 6, JSON.stringify(s).slice(0, 300));
  const source = { kind: 'retained-evidence', evidence_id: s.parent_evidence_id };
  const members = await client.callTool({ name: 'inspect_analysis_view', arguments: {
    source, view: { kind: 'model-artifact', collection: 'members', fields: ['path'] } } });
  check('a page over the set\'s members', members.structuredContent?.total_matches === 3
    && members.structuredContent?.rows?.[2]?.path === member(3), JSON.stringify(members.structuredContent).slice(0, 300));
  const tensors = await client.callTool({ name: 'inspect_analysis_view', arguments: {
    source, view: { kind: 'model-artifact', collection: 'tensors', fields: ['name'], offset: 3, limit: 2 } } });
  const rows = tensors.structuredContent?.rows ?? [];
  check('a page over all members\' tensors carries member',
    rows.length === 2 && rows[0].member === 1 && rows[0].index === 1 && rows[0].name === 'blk.3.weight'
      && rows[1].member === 2 && rows[1].index === 0, JSON.stringify(rows));

  // Cancel during the set's full hash (24 GiB of holes: minutes to hash).
  const controller = new AbortController();
  let firstProgress;
  const started = new Promise((r) => { firstProgress = r; });
  const progress = [];
  const slow = client.callTool(
    { name: 'inspect_model_set', arguments: { path: member(1), hash: 'full' } },
    undefined,
    { onprogress: (p) => { progress.push(p); firstProgress(); }, signal: controller.signal, timeout: 600000 });
  const outcome = slow.then((r) => ({ result: r }), (e) => ({ error: e }));
  await Promise.race([started, sleep(60000)]);
  check('a set\'s full hash reports progress over every member\'s bytes',
    progress.length >= 1 && progress[0].total === 3 * 8 * 1024 * 1024 * 1024, JSON.stringify(progress[0]));
  const t0 = Date.now();
  controller.abort('e2e set cancel');
  await outcome;
  let after;
  for (let i = 0; i < 100; i++) {
    after = await client.callTool({ name: 'inspect_model_artifact', arguments: { path: member(1), detail: 'complete' } });
    if (!(after.isError && errorOf(after).constraint === 'provider_busy')) break;
    await sleep(50);
  }
  check('notifications/cancelled stopped the set\'s hash', after && !after.isError && Date.now() - t0 < 5000,
    `slot free after ${Date.now() - t0} ms`);
  await sleep(200);
  const late = clientErrors.find((m) => m.includes('"schema":"rea.model-set.v1"'));
  check('the cancelled set call was answered with cancelled + a partial set record',
    late !== undefined && late.includes('"constraint":"cancelled"') && late.includes('"status":"partial"'),
    late ? late.slice(0, 200) : 'no late response seen');
}

try {
  await main();
} catch (e) {
  check('no unexpected exception', false, e?.stack ?? String(e));
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
