// The name service as a built-in system contract: koinos-contracts-as contracts/name_service run natively, with its
// entry points, storage (system spaces in its own zone) and messages. get_contract_address (10001) and
// get_contract_name (10000) are overrides to its get_address / get_name, as on mainnet and harbinger.
import { equalBytes, toBase58, utf8ToBytes } from '../../koinos/bytes.ts';
import { decode, encode } from '../../koinos/codec.ts';
import { DESCRIPTOR } from '../../koinos/generated/descriptor.ts';
import { ERROR_CODE, reversion } from '../state/chainError.ts';
import { objectSpace, type Space, type StateView } from '../state/state.ts';
import {
  decodeArguments,
  check,
  emit,
  getObject,
  putObject,
  removeObject,
  type CallContext,
  type Contract,
} from './context.ts';

const NS = 'koinos.contracts.name_service.';

/** Entry points: the first 4 bytes of sha256 of each method name, as the contract's ABI numbers them. */
const NAME_SERVICE_ENTRY_POINTS = {
  set_record: 0xe248c73a,
  get_address: 0xa61ae5e8,
  get_name: 0xe5070a16,
} as const;

/** The name service's spaces (NameService.ts): 0 name → address_record, 1 address → name_record. */
function nameServiceSpaces(address: Uint8Array): { nameToAddress: Space; addressToName: Space } {
  return { nameToAddress: objectSpace(address, 0), addressToName: objectSpace(address, 1) };
}

/** The name service contract at one address. */
export class NameServiceContract implements Contract {
  readonly address: Uint8Array;
  private readonly spaces: ReturnType<typeof nameServiceSpaces>;

  constructor(address: Uint8Array) {
    this.address = address;
    this.spaces = nameServiceSpaces(address);
  }

  /**
   * The genesis objects of a record (what set_record writes, without the event): for a chain that starts with its
   * system names registered, as a real chain's genesis transactions leave them.
   */
  recordObjects(name: string, address: Uint8Array): { space: Space; key: Uint8Array; value: Uint8Array }[] {
    return [
      { space: this.spaces.nameToAddress, key: utf8ToBytes(name), value: encode(`${NS}address_record`, { address }) },
      { space: this.spaces.addressToName, key: address, value: encode(`${NS}name_record`, { name }) },
    ];
  }

  /** The address registered under `name`, read without metering (node services). */
  addressOf(view: StateView, name: string): Uint8Array | undefined {
    const bytes = view.get(this.spaces.nameToAddress, utf8ToBytes(name));
    return bytes ? decode(`${NS}address_record`, bytes).address : undefined;
  }

  call(ctx: CallContext, entryPoint: number, args: Uint8Array): Uint8Array {
    switch (entryPoint) {
      case NAME_SERVICE_ENTRY_POINTS.get_address: {
        const { name } = decodeArguments(`${NS}get_address_arguments`, args);
        const record = getObject(ctx, this.spaces.nameToAddress, utf8ToBytes(name));
        // The current contract: System.require(record != null, …, failure).
        check(record !== undefined, `no record found for the name: ${name}`, ERROR_CODE.failure);
        return encode(`${NS}get_address_result`, { value: decode(`${NS}address_record`, record) });
      }
      case NAME_SERVICE_ENTRY_POINTS.get_name: {
        const { address } = decodeArguments(`${NS}get_name_arguments`, args);
        const record = getObject(ctx, this.spaces.addressToName, address);
        check(record !== undefined, `no record found for the address: ${toBase58(address)}`, ERROR_CODE.failure);
        return encode(`${NS}get_name_result`, { value: decode(`${NS}name_record`, record) });
      }
      case NAME_SERVICE_ENTRY_POINTS.set_record:
        return this.setRecord(ctx, decodeArguments(`${NS}set_record_arguments`, args));
      default:
        throw reversion(`unknown entry point 0x${entryPoint.toString(16).padStart(8, '0')} of the name service`);
    }
  }

  /**
   * set_record: System.requireSystemAuthority() (on the devnet, a signature of the genesis key), then one name per
   * address and one address per name: the old mappings of both are removed. Emits record_update_event.
   */
  private setRecord(ctx: CallContext, args: { name: string; address: Uint8Array }): Uint8Array {
    // The contract's require() carries no message; the devnet says what was missing.
    check(ctx.authorize(ctx.genesisAddress), 'system authority required');
    const { name, address } = args;
    const nameKey = utf8ToBytes(name);
    const impacted = [address];
    const oldAddress = getObject(ctx, this.spaces.nameToAddress, nameKey);
    if (oldAddress) {
      const old = decode(`${NS}address_record`, oldAddress).address;
      removeObject(ctx, this.spaces.addressToName, old);
      if (!equalBytes(old, address)) impacted.push(old);
    }
    const oldName = getObject(ctx, this.spaces.addressToName, address);
    if (oldName) removeObject(ctx, this.spaces.nameToAddress, utf8ToBytes(decode(`${NS}name_record`, oldName).name));
    putObject(ctx, this.spaces.nameToAddress, nameKey, encode(`${NS}address_record`, { address }));
    putObject(ctx, this.spaces.addressToName, address, encode(`${NS}name_record`, { name }));
    emit(
      ctx,
      this.address,
      'koinos.contracts.record_update_event',
      encode(`${NS}record_update_event`, { name, address }),
      impacted,
    );
    return encode(`${NS}set_record_result`, {});
  }
}

let abiText: string | undefined;

/** The name service's ABI as JSON text, in the shape koilib's Contract reads (the contract meta store answers it). */
export function nameServiceAbi(): string {
  const types = (DESCRIPTOR.nested as any).koinos.nested.contracts.nested.name_service;
  const method = (name: keyof typeof NAME_SERVICE_ENTRY_POINTS, readOnly: boolean, description: string) => ({
    argument: `koinos.contracts.name_service.${name}_arguments`,
    return: `koinos.contracts.name_service.${name}_result`,
    entry_point: NAME_SERVICE_ENTRY_POINTS[name],
    read_only: readOnly,
    description,
  });
  abiText ??= JSON.stringify({
    methods: {
      get_address: method('get_address', true, 'Returns the address registered under a name'),
      get_name: method('get_name', true, 'Returns the name registered for an address'),
      set_record: method('set_record', false, 'Registers a name for an address (system authority only)'),
    },
    events: {
      'koinos.contracts.record_update_event': { argument: 'koinos.contracts.name_service.record_update_event' },
    },
    koilib_types: { nested: { koinos: { nested: { contracts: { nested: { name_service: types } } } } } },
  });
  return abiText;
}
