// The ABIs the contract meta store answers for the native pob, resources, claim and governance contracts: written here
// from their .proto messages and entry points (the interface is a fact; no upstream ABI file is copied), in the shape
// koilib's Contract reads (`entry_point` as a number, `read_only`, protobufjs JSON in `koilib_types`).
import { DESCRIPTOR } from '../../koinos/generated/descriptor.ts';
import { entryPoint } from '../../koinos/koin.ts';
import { ERROR_CODE, reversion } from '../state/chainError.ts';

/** One method of a system contract: its wire name, entry point and messages. */
export interface SystemMethod<P extends string = string, N extends string = string> {
  name: N;
  entryPoint: number;
  /** The arguments' message type: `<pkg>.<name>_arguments` (a literal type, so decode and encode know the message). */
  argument: `${P}.${N}_arguments`;
  result: `${P}.${N}_result`;
  readOnly: boolean;
  description: string;
}

/**
 * A method whose entry point is the first 4 bytes of sha256 of its name and whose messages are `<pkg>.<name>_arguments`
 * and `<pkg>.<name>_result`, as most system contracts number and name them.
 */
export function systemMethod<P extends string, N extends string>(
  pkg: P,
  name: N,
  readOnly: boolean,
  description: string,
): SystemMethod<P, N> {
  return {
    name,
    entryPoint: entryPoint(name),
    argument: `${pkg}.${name}_arguments`,
    result: `${pkg}.${name}_result`,
    readOnly,
    description,
  };
}

/**
 * The method a call names, as a system contract's main dispatches it: an unknown entry point reverts, and so does a
 * method that writes when the context is read-only.
 * @throws ChainError (a reversion) for either.
 */
export function methodOf<M extends SystemMethod>(
  methods: Readonly<Record<string, M>>,
  entryPoint: number,
  readOnly: boolean,
  contract: string,
): M {
  const method = Object.values(methods).find((m) => m.entryPoint === entryPoint);
  if (!method)
    throw reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')} of the ${contract} contract`);
  if (!method.readOnly && readOnly)
    throw reversion('unable to perform action while context is read only', ERROR_CODE.read_only_context);
  return method;
}

type Namespace = { nested?: Record<string, Namespace> } & Record<string, unknown>;

/** Copies the descriptor entries at `paths` (a package or one message, dotted) into one protobufjs namespace. */
function pickTypes(paths: readonly string[]): Namespace {
  const out: Namespace = { nested: {} };
  for (const path of paths) {
    const parts = path.split('.');
    let from = DESCRIPTOR as Namespace;
    let to = out;
    parts.forEach((part, i) => {
      const next = from.nested?.[part];
      if (!next) throw new Error(`systemAbi: the descriptor has no ${parts.slice(0, i + 1).join('.')}`);
      to.nested ??= {};
      if (i === parts.length - 1) to.nested[part] = next;
      else to.nested[part] ??= { nested: {} };
      from = next;
      to = to.nested[part]!;
    });
  }
  return out;
}

/**
 * The ABI JSON text of a method table. `types` lists what the messages need, as packages or single messages
 * (`koinos.contracts.pob`, `koinos.chain.resource_limit_data`); `events` maps each event name to its message.
 * @throws Error when a listed type is not in the descriptor (a programming error, caught by the tests).
 * @example
 * systemAbi([systemMethod('koinos.contracts.claim', 'get_info', true, 'Gets information on KOIN claims')], ['koinos.contracts.claim']);
 */
export function systemAbi(
  methods: readonly SystemMethod[],
  types: readonly string[],
  events: Readonly<Record<string, string>> = {},
): string {
  return JSON.stringify({
    methods: Object.fromEntries(
      methods.map((m) => [
        m.name,
        {
          argument: m.argument,
          return: m.result,
          entry_point: m.entryPoint,
          read_only: m.readOnly,
          description: m.description,
        },
      ]),
    ),
    events: Object.fromEntries(Object.entries(events).map(([name, argument]) => [name, { argument }])),
    koilib_types: pickTypes(types),
  });
}
