// The system token contracts known without --koin: mainnet and testnet from the facts, the devnet's from what a running
// devnet resolves by system name (so a change of the devnet's addresses shows up here).
import { describe, expect, it } from 'vitest';
import { addressFromString, addressToString } from '../../src-main/koinos/address.ts';
import { toBase64Url } from '../../src-main/koinos/bytes.ts';
import { decode, encode } from '../../src-main/koinos/codec.ts';
import { KNOWN_TOKEN_CONTRACTS, knownTokenContract } from '../../src-main/koinos/knownContracts.ts';
import { testNodes } from '../devnet/helpers.ts';

const node = testNodes();

describe('known system token contracts', () => {
  it('knows KOIN and VHP of mainnet and testnet as the facts list them (§4.2)', () => {
    const table = Object.fromEntries(KNOWN_TOKEN_CONTRACTS.map((c) => [`${c.network} ${c.token}`, c.address]));
    expect(table).toMatchObject({
      'mainnet koin': '15DJN4a8SgrbGhhGksSBASiSYjGnMU8dGL',
      'mainnet vhp': '18tWNU7E4yuQzz7hMVpceb9ixmaWLVyQsr',
      'testnet koin': '1FaSvLjQJsCJKq5ybmGsMMQs8RQYyVv8ju',
      'testnet vhp': '17n12ktwN79sR6ia9DDgCfmw77EgpbTyBi',
    });
    for (const c of KNOWN_TOKEN_CONTRACTS) expect(knownTokenContract(addressFromString(c.address))).toBe(c);
    expect(knownTokenContract(new Uint8Array(3))).toBeUndefined();
  });

  it('knows the devnet token contracts a running devnet resolves by system name', async () => {
    const devnet = await node();
    let resolved = 0;
    for (const token of ['koin', 'vhp'] as const) {
      const args = encode('koinos.contracts.name_service.get_address_arguments', { name: token });
      const { value } = (await devnet.call('chain.invoke_system_call', { name: 'get_contract_address', args })) as {
        value: Uint8Array;
      };
      const address = decode('koinos.contracts.name_service.get_address_result', value).value?.address;
      if (!address || address.length === 0) continue; // a devnet without this token (VHP comes with the devnet's second round)
      expect(knownTokenContract(address), `${token} ${toBase64Url(address)}`).toMatchObject({
        network: 'devnet',
        token,
        address: addressToString(address),
      });
      resolved++;
    }
    expect(resolved).toBeGreaterThanOrEqual(1); // KOIN at least
  });
});
