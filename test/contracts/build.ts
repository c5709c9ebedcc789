// Builds a test contract of test/contracts/<name>/ from npm sources: Debian's protoc with the @koinos/as-proto-gen
// plugin writes its AssemblyScript messages, asc compiles it with its asconfig.json, and its ABI (koilib's format) is
// made from the same .proto. The tests use the build committed in test/contracts/built/<name>/ when it was made from
// the current inputs (their hash is beside it; builtContracts.test.ts fails when it is not, and the README's test
// builds the guestbook from source again and compares the bytes); otherwise they build it here, cached in
// test/contracts/.build/ by a hash of the inputs. `npx tsx test/contracts/build.ts --commit NAME` writes the committed
// build.
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, relative, resolve, sep } from 'node:path';
import asc from 'assemblyscript/asc';
import descriptor from 'protobufjs/ext/descriptor/index.js';

const ROOT = join(import.meta.dirname, '../..');
const CONTRACTS = join(ROOT, 'test/contracts');
const CACHE = join(CONTRACTS, '.build');
/** The committed builds: built/<name>/ holds contract.wasm, abi.json and INPUTS_FILE. */
export const COMMITTED = join(CONTRACTS, 'built');
/** The hash of the inputs a committed build was made from ({@link inputHash} without protoc's version). */
const INPUTS_FILE = 'inputs.sha256';
/** The koinos options (btype) the contracts' .proto files import. */
const KOINOS_PROTO = join(ROOT, 'proto');
const require = createRequire(import.meta.url);

/** koilib's ABI: methods by name, the .proto as a base64 FileDescriptorSet, and the events the contract emits. */
export interface ContractAbi {
  methods: Record<
    string,
    { entry_point: number; argument: string; return: string; read_only: boolean; description: string }
  >;
  types: string;
  events: Record<string, { type: string }>;
}

export interface BuiltContract {
  /** The compiled module, WebAssembly 1.0 with an exported `_start`. */
  bytecode: Uint8Array;
  abi: ContractAbi;
  /** The folder holding contract.wasm and abi.json. */
  dir: string;
}

/**
 * The inputs that decide the output: sources, this script, the toolchain's versions and, for the cache, protoc's (a
 * committed build is compared with a build by the machine's own protoc in the README's test instead).
 */
export function inputHash(name: string, protoc?: string): string {
  const hash = createHash('sha256');
  const add = (label: string, data: string | Uint8Array) => hash.update(`${label}\0${data.length}\0`).update(data);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else add(relative(CONTRACTS, path), readFileSync(path));
    }
  };
  walk(join(CONTRACTS, name));
  add('build.ts', readFileSync(import.meta.filename));
  add('options.proto', readFileSync(join(KOINOS_PROTO, 'koinos/options.proto')));
  for (const pkg of ['@koinos/sdk-as', '@koinos/proto-as', '@koinos/as-proto-gen', 'as-proto', 'assemblyscript']) {
    add(
      pkg,
      String((JSON.parse(readFileSync(require.resolve(`${pkg}/package.json`), 'utf8')) as { version: string }).version),
    );
  }
  if (protoc !== undefined) add('protoc', execFileSync(protoc, ['--version'], { encoding: 'utf8' }));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The system's protoc (Debian's protobuf-compiler). node_modules/.bin holds @roamin/protoc's wrapper, which downloads
 * a protoc when the package.json asks for a version, so PATH entries inside node_modules are skipped.
 * @throws Error when no protoc is installed.
 */
export function findProtoc(): string {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || dir.split(sep).includes('node_modules')) continue;
    const path = join(dir, 'protoc');
    if (existsSync(path)) return path;
  }
  throw new Error('expected protoc on PATH (Debian: apt-get install protobuf-compiler), found none');
}

/**
 * Why contracts cannot be built here (no protoc), or undefined when they can. In CI that is an error; elsewhere the
 * tests that build contracts skip, saying why, as the keychain and browser tests do.
 */
export const NO_PROTOC: string | undefined = (() => {
  try {
    findProtoc();
    return undefined;
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    const reason = (error as Error).message;
    console.warn(`Skipping the tests that build contracts from @koinos/sdk-as: ${reason}.`);
    return reason;
  }
})();

/** As koinos-abi-proto-gen lib/index.js: the entry point is the first 4 bytes of sha256(method name). */
export function entryPoint(method: string): number {
  return createHash('sha256').update(method).digest().readUInt32BE(0);
}

interface FileDescriptor {
  package?: string;
  messageType?: { name?: string }[];
  sourceCodeInfo?: { location?: { path?: number[]; leadingComments?: string }[] };
}

/**
 * The ABI of a .proto, by koinos-abi-proto-gen's rules (lib/index.js): every `<method>_arguments` message with
 * `@description` and `@read-only` comments is a method returning `<method>_result` (or its `@result`); and, for
 * koilib's decodeEvent, every message with an `@event <name>` comment is the type of that event.
 * @throws Error when a method lacks its comments, as the generator does.
 */
function abiOf(sourceInfoSet: Uint8Array, typesSet: Uint8Array, protoName: string): ContractAbi {
  const set = descriptor.FileDescriptorSet.toObject(descriptor.FileDescriptorSet.decode(sourceInfoSet)) as {
    file?: (FileDescriptor & { name?: string })[];
  };
  const file = set.file?.find((f) => f.name === protoName);
  if (!file?.package)
    throw new Error(`expected ${protoName} with a package, found ${file ? 'no package' : 'no such file'}`);
  const comments = new Map<string, string>();
  for (const location of file.sourceCodeInfo?.location ?? []) {
    if (location.leadingComments) comments.set((location.path ?? []).join('.'), location.leadingComments);
  }
  const abi: ContractAbi = { methods: {}, types: Buffer.from(typesSet).toString('base64'), events: {} };
  (file.messageType ?? []).forEach((message, index) => {
    const name = message.name ?? '';
    // Path 4.<index>: the message_type field (4) of FileDescriptorProto, then the message's index.
    const lines = (comments.get(`4.${index}`) ?? '').split('\n');
    const tag = (t: string) =>
      lines
        .find((l) => l.includes(t))
        ?.replace(t, '')
        .trim();
    const event = tag('@event');
    if (event) abi.events[event] = { type: `${file.package}.${name}` };
    if (!name.endsWith('_arguments')) return;
    const method = name.slice(0, -'_arguments'.length);
    const description = tag('@description');
    const readOnly = tag('@read-only');
    if (!description || !readOnly)
      throw new Error(`expected @description and @read-only comments on ${name}, found ${JSON.stringify(lines)}`);
    abi.methods[method] = {
      entry_point: entryPoint(method),
      argument: `${file.package}.${name}`,
      // The generator puts the package before an `@result` name too.
      return: `${file.package}.${tag('@result') ?? `${method}_result`}`,
      read_only: readOnly === 'true',
      description,
    };
  });
  return abi;
}

/** Whether a process of this id runs (a build lock of a process that died is stale). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How long a build waits for another process building the same inputs (a cold build takes tens of seconds). */
const LOCK_WAIT_MS = 300_000;

/**
 * Runs `build` unless `dir` is built, one process at a time: test files started together build once, and the others
 * poll (with a deadline) until the first one's output is in place. The lock file holds the builder's process id.
 */
async function buildOnce(dir: string, build: () => Promise<void>): Promise<void> {
  const lock = `${dir}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  mkdirSync(CACHE, { recursive: true });
  for (;;) {
    if (existsSync(join(dir, 'abi.json'))) return;
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(lock, 'utf8'));
    } catch {
      continue; // released meanwhile
    }
    // An empty lock is one being written: its holder lives.
    if (holder > 0 && !alive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline)
      throw new Error(
        `expected process ${holder} to finish building ${dir} within ${LOCK_WAIT_MS} ms, found it still building`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  try {
    if (!existsSync(join(dir, 'abi.json'))) await build();
  } finally {
    rmSync(lock, { force: true });
  }
}

function readBuild(dir: string): BuiltContract {
  return {
    bytecode: new Uint8Array(readFileSync(join(dir, 'contract.wasm'))),
    abi: JSON.parse(readFileSync(join(dir, 'abi.json'), 'utf8')) as ContractAbi,
    dir,
  };
}

/** The hash of the inputs the committed build of `name` was made from, or undefined when there is none. */
export function committedInputs(name: string): string | undefined {
  try {
    return readFileSync(join(COMMITTED, name, INPUTS_FILE), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * Builds test/contracts/<name> (its assembly/ with assembly/proto/<name>.proto, and asconfig.json) from source, or
 * returns the cached build of the same inputs. Concurrent callers build once (a lock file), and a build is renamed
 * into place whole.
 * @throws Error with protoc's or asc's output when a step fails.
 */
export async function buildFromSource(name: string): Promise<BuiltContract> {
  const protoc = findProtoc();
  const dir = join(CACHE, `${name}-${inputHash(name, protoc)}`);
  await buildOnce(dir, () => compile(name, protoc, dir));
  return readBuild(dir);
}

/**
 * The contract test/contracts/<name>: its committed build when that was made from the current inputs, else a build
 * from source ({@link buildFromSource}).
 * @example
 * const { bytecode, abi } = await buildContract('guestbook');
 */
export async function buildContract(name: string): Promise<BuiltContract> {
  if (committedInputs(name) === inputHash(name)) return readBuild(join(COMMITTED, name));
  return buildFromSource(name);
}

/** protoc + as-proto-gen, the ABI, then asc, in a folder of its own renamed to `dir` when all went well. */
async function compile(name: string, protoc: string, dir: string): Promise<void> {
  const work = `${dir}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(work, { recursive: true });
    cpSync(join(CONTRACTS, name), work, { recursive: true });
    const protoName = `assembly/proto/${name}.proto`;
    const plugin = join(dirname(require.resolve('@koinos/as-proto-gen/package.json')), 'bin/as-proto-gen');
    const run = (args: string[]) =>
      execFileSync(protoc, ['-I', work, '-I', KOINOS_PROTO, ...args, join(work, protoName)], {
        cwd: work,
        stdio: 'pipe',
      });
    run([`--plugin=protoc-gen-as=${plugin}`, `--as_out=${work}`]);
    run(['--include_source_info', `--descriptor_set_out=${join(work, 'source-info.pb')}`]);
    // As the generator: the contract's own file only, without its imports or comments.
    run([`--descriptor_set_out=${join(work, 'types.pb')}`]);
    const abi = abiOf(readFileSync(join(work, 'source-info.pb')), readFileSync(join(work, 'types.pb')), protoName);

    const output: string[] = [];
    const stream = { write: (chunk: string | Uint8Array) => void output.push(String(chunk)) };
    const result = await asc.main(
      [join(work, 'assembly/index.ts'), '--config', join(work, 'asconfig.json'), '--target', 'release'],
      {
        stdout: stream,
        stderr: stream,
      },
    );
    if (result.error) throw new Error(`asc failed to build ${name}: ${result.error.message}\n${output.join('')}`);
    cpSync(join(work, 'build/contract.wasm'), join(work, 'contract.wasm'));
    writeFileSync(join(work, 'abi.json'), `${JSON.stringify(abi, null, 2)}\n`);
    renameSync(work, dir);
  } catch (error) {
    if (error instanceof Error && 'stderr' in error && error.stderr) error.message += `\n${String(error.stderr)}`;
    throw error;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The contracts of test/contracts: its folders with an asconfig.json. */
export function contractNames(): string[] {
  return readdirSync(CONTRACTS)
    .filter((entry) => existsSync(join(CONTRACTS, entry, 'asconfig.json')))
    .sort();
}

// `npx tsx test/contracts/build.ts NAME` builds test/contracts/NAME from source and prints the folder of contract.wasm
// and abi.json; with --commit, it writes that build and the hash of its inputs to test/contracts/built/NAME.
if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const commit = process.argv[2] === '--commit';
  const name = process.argv[commit ? 3 : 2];
  if (!name || !contractNames().includes(name)) {
    process.stderr.write(
      `usage: npx tsx test/contracts/build.ts [--commit] NAME (NAME one of ${contractNames().join(', ')}); got ${name ?? 'nothing'}\n`,
    );
    process.exit(2);
  }
  const built = await buildFromSource(name);
  if (commit) {
    const dir = join(COMMITTED, name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(join(built.dir, 'contract.wasm'), join(dir, 'contract.wasm'));
    cpSync(join(built.dir, 'abi.json'), join(dir, 'abi.json'));
    writeFileSync(join(dir, INPUTS_FILE), `${inputHash(name)}\n`);
  }
  process.stdout.write(`${commit ? join(COMMITTED, name) : built.dir}\n`);
}
