// The risk assessment every review shares: each flag raised on a transaction built for it, none on a plain transfer
// of a known token, and the `--allow-risk` names read back and checked.
import { describe, expect, it } from 'vitest';
import { addressFromPublicKey, addressFromString, addressToString } from '../../../src-main/koinos/address.ts';
import { KNOWN_TOKEN_CONTRACTS } from '../../../src-main/koinos/knownContracts.ts';
import { koinOperation } from '../../../src-main/koinos/koin.ts';
import { newPrivateKey, publicKeyFromPrivateKey } from '../../../src-main/koinos/keys.ts';
import { nonceToBytes } from '../../../src-main/koinos/transaction.ts';
import type { Operation, Transaction } from '../../../src-main/koinos/types.ts';
import {
  RISK_NAMES,
  assessRisks,
  knownContractsOf,
  riskCodeOf,
  unacceptedRisks,
  type RiskContext,
} from '../../../src-main/wallet/chain/riskFlags.ts';
import { decodeOperation } from '../../../src-main/wallet/chain/operations.ts';
import { lookalikeAddress } from '../../helpers/lookalike.ts';
import { KCS5_ABI } from '../../../src-main/wallet/chain/kcs5.ts';

function newAddress(): string {
  return addressToString(addressFromPublicKey(publicKeyFromPrivateKey(newPrivateKey(), true)));
}

const signer = newAddress();
const other = newAddress();
const koin = KNOWN_TOKEN_CONTRACTS.find((c) => c.network === 'mainnet' && c.token === 'koin')!.address;
const context: RiskContext = { signers: [signer], knownContracts: knownContractsOf('mainnet') };

function tx(...operations: Operation[]): Transaction {
  const header = {
    chain_id: new Uint8Array(34),
    rc_limit: 1000n,
    nonce: nonceToBytes(1n),
    operation_merkle_root: new Uint8Array(0),
    payer: addressFromString(signer),
    payee: new Uint8Array(0),
  };
  return { id: new Uint8Array(0), header, operations, signatures: [] };
}

const transfer = (contract: string, to: string) =>
  koinOperation(addressFromString(contract), 'transfer', {
    from: addressFromString(signer),
    to: addressFromString(to),
    value: 5n,
  });
const upload = (contract: string): Operation => ({
  upload_contract: {
    contract_id: addressFromString(contract),
    bytecode: new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]),
    abi: '',
    authorizes_call_contract: false,
    authorizes_transaction_application: false,
    authorizes_upload_contract: false,
  },
});
const codes = (t: Transaction, c: RiskContext = context) => assessRisks(t, c).map((r) => r.code);

describe('assessRisks', () => {
  it('raises nothing for a KOIN transfer to another account', () => {
    expect(assessRisks(tx(transfer(koin, other)), context)).toEqual([]);
  });

  it("flags an upload over the signer's own address as replacing the account, and any upload as an upload", () => {
    const own = assessRisks(tx(upload(signer)), context);
    expect(own.map((r) => r.code)).toEqual(['REPLACES_ACCOUNT', 'UPLOAD_CONTRACT']);
    expect(own[0]).toEqual({
      code: 'REPLACES_ACCOUNT',
      name: 'replaces-account',
      message: expect.stringContaining(
        `over ${signer}, the signer's own account: this replaces this account with contract code`,
      ),
    });
    expect(codes(tx(upload(other)))).toEqual(['UPLOAD_CONTRACT']);
  });

  it('flags the governance operations set_system_call and set_system_contract', () => {
    const call: Operation = { set_system_call: { call_id: 7, target: { thunk_id: 9 } } };
    const contract: Operation = {
      set_system_contract: { contract_id: addressFromString(other), system_contract: true },
    };
    const risks = assessRisks(tx(call, contract), context);
    expect(risks.map((r) => r.code)).toEqual(['SET_SYSTEM_CONTRACT', 'SET_SYSTEM_CALL']);
    expect(risks[0]!.message).toContain(`${other} (made a system contract)`);
    expect(risks[1]!.message).toContain('system call 7');
  });

  it('flags a call to an unknown contract, and its arguments as undecodable unless the caller has its ABI', () => {
    const odd: Operation = {
      call_contract: { contract_id: addressFromString(other), entry_point: 0x1234, args: new Uint8Array([1, 2, 3]) },
    };
    const risks = assessRisks(tx(odd), context);
    expect(risks.map((r) => r.code)).toEqual(['UNKNOWN_CONTRACT', 'NO_ABI']);
    expect(risks[0]!.message).toContain(
      `It calls ${other}, a contract that is neither a known token nor a system contract`,
    );
    expect(risks[1]!.message).toContain(`${other} (entry point ${0x1234})`);
    expect(codes(tx(odd), { ...context, contractsWithAbi: [other] })).toEqual(['UNKNOWN_CONTRACT']);
    expect(codes(tx(odd), { ...context, knownContracts: [other], contractsWithAbi: [other] })).toEqual([]);
    // A token method's entry point with arguments that are not that method's: not decodable either.
    const garbled: Operation = {
      call_contract: { ...transfer(koin, other).call_contract!, args: new Uint8Array([0xff, 0xff]) },
    };
    expect(codes(tx(garbled))).toEqual(['NO_ABI']);
    // The contracts a network knows are its own: mainnet's KOIN is unknown on the devnet.
    expect(codes(tx(transfer(koin, other)), { ...context, knownContracts: knownContractsOf('local') })).toEqual([
      'UNKNOWN_CONTRACT',
    ]);
  });

  it('flags a token transfer from the signer to itself, not one to a signer from another account', () => {
    const risks = assessRisks(tx(transfer(koin, signer)), context);
    expect(risks.map((r) => r.code)).toEqual(['SELF_TRANSFER']);
    expect(risks[0]!.message).toContain(`from ${signer} to the same address, the signer's own`);
    // The payer receiving a transfer it pays for (from another signer): tokens move.
    const pulled = koinOperation(addressFromString(koin), 'transfer', {
      from: addressFromString(other),
      to: addressFromString(signer),
      value: 5n,
    });
    expect(codes(tx(pulled), { ...context, signers: [signer, other] })).toEqual([]);
  });

  it('flags a transfer to an address that looks like a known one and is none, naming the known one', () => {
    const carol = newAddress();
    const known = {
      ...context,
      knownAddresses: [
        { address: signer, label: 'your account Main' },
        { address: carol, label: 'your contact Carol' },
      ],
    };
    const [fakeCarol, fakeMain] = [lookalikeAddress(carol), lookalikeAddress(signer)];
    const risks = assessRisks(tx(transfer(koin, fakeCarol), transfer(koin, fakeMain)), known);
    expect(risks.map((r) => r.name)).toEqual(['lookalike-recipient']);
    expect(risks[0]!.message).toBe(
      `It transfers to ${fakeCarol}, not your contact Carol (${carol}) and ${fakeMain}, not your account Main (${signer}): addresses that begin and end like one you know but are another. Addresses are made to look alike to be copied by mistake from a history: compare every character with the address you mean before signing.`,
    );
    // The known address itself, an address like none, and a review that compares with nothing: no flag.
    expect(codes(tx(transfer(koin, carol)), known)).toEqual([]);
    expect(codes(tx(transfer(koin, other)), known)).toEqual([]);
    expect(codes(tx(transfer(koin, fakeCarol)))).toEqual([]);
    // An address like a known one, yet itself known (sent to before): no flag.
    const sentTo = {
      ...known,
      knownAddresses: [...known.knownAddresses, { address: fakeCarol, label: 'an address you sent to' }],
    };
    expect(codes(tx(transfer(koin, fakeCarol)), sentTo)).toEqual([]);
  });

  it('flags an allowance to an account that does not sign, not one to a signer nor one taken back (0)', () => {
    const approve = (spender: string, value: bigint) =>
      koinOperation(addressFromString(koin), 'approve', {
        owner: addressFromString(signer),
        spender: addressFromString(spender),
        value,
      });
    const risks = assessRisks(tx(approve(other, 10n ** 18n)), context);
    expect(risks.map((r) => r.name)).toEqual(['token-allowance']);
    expect(risks[0]!.message).toBe(
      `It lets ${other} (tokens of ${koin} held by ${signer}) take tokens later without another signature (an allowance): sign only if you trust this account with them.`,
    );
    expect(codes(tx(approve(other, 0n)))).toEqual([]);
    expect(codes(tx(approve(other, 5n)), { ...context, signers: [signer, other] })).toEqual([]);
  });

  it("flags an NFT collection's grant of one token or of every token to an account that does not sign, not one taken back", () => {
    const collection = newAddress();
    const call = (method: 'approve' | 'set_approval_for_all', args: object): Operation => {
      const m = KCS5_ABI.method(method);
      return {
        call_contract: {
          contract_id: addressFromString(collection),
          entry_point: m.entryPoint,
          args: KCS5_ABI.encodeArguments(m, args),
        },
      };
    };
    const all = (operator: string, approved: boolean) =>
      call('set_approval_for_all', { owner: signer, operator, approved });
    const one = (operator: string, approve?: boolean) =>
      call('approve', { owner: signer, operator, token_id: '0x01', ...(approve === undefined ? {} : { approve }) });
    // The collection is known (added to the wallet): the grant alone is the flag.
    const known = {
      ...context,
      knownContracts: [...context.knownContracts, collection],
      contractsWithAbi: [collection],
    };
    const risks = assessRisks(tx(all(other, true), one(other)), known);
    expect(risks.map((r) => r.name)).toEqual(['nft-allowance']);
    expect(risks[0]!.message).toBe(
      `It lets ${other} (every NFT of ${collection} held by ${signer}) and ${other} (NFT 0x01 of ${collection} held by ${signer}) transfer NFTs later without another signature: sign only if you trust these accounts with them. A grant of every NFT covers the ones the account receives later too.`,
    );
    // Taken back, or granted to a signer: no flag; a KCS-4 approve at the same entry point stays a token allowance.
    expect(codes(tx(all(other, false), one(other, false)), known)).toEqual([]);
    expect(codes(tx(all(other, true)), { ...known, signers: [signer, other] })).toEqual([]);
    expect(codes(tx(one(other, true)), known)).toEqual(['NFT_ALLOWANCE']);
    const tokenApprove = koinOperation(addressFromString(koin), 'approve', {
      owner: addressFromString(signer),
      spender: addressFromString(other),
      value: 5n,
    });
    expect(codes(tx(tokenApprove), known)).toEqual(['TOKEN_ALLOWANCE']);
  });

  it('flags a chain ID change, and lists one flag per code naming every operation concerned', () => {
    expect(codes(tx(transfer(koin, other)), { ...context, chainIdChanged: true })).toEqual(['CHAIN_ID_CHANGED']);
    const third = newAddress();
    const unknown = assessRisks(tx(transfer(other, third), transfer(third, other)), context).find(
      (r) => r.code === 'UNKNOWN_CONTRACT',
    )!;
    expect(unknown.message).toContain(`It calls ${other} and ${third}, contracts that are`);
  });
});

describe('risk names', () => {
  it('are the kebab case of every code, and read back', () => {
    for (const [code, name] of Object.entries(RISK_NAMES)) {
      expect(name).toBe(code.toLowerCase().replaceAll('_', '-'));
      expect(riskCodeOf(name)).toBe(code);
    }
    expect(() => riskCodeOf('upload')).toThrow(
      /--allow-risk: expected one of replaces-account, upload-contract, .*, got "upload"/,
    );
  });

  it('leave the flags that are not allowed', () => {
    const risks = assessRisks(tx(upload(signer)), context);
    expect(unacceptedRisks(risks, []).map((r) => r.name)).toEqual(['replaces-account', 'upload-contract']);
    expect(unacceptedRisks(risks, ['upload-contract']).map((r) => r.name)).toEqual(['replaces-account']);
    expect(unacceptedRisks(risks, ['upload-contract', 'replaces-account'])).toEqual([]);
  });
});

describe('decodeOperation in a review', () => {
  it('gives every address in full, and describes an upload by its size instead of its bytes', () => {
    const summary = decodeOperation(transfer(koin, other), [
      { contract: koin, name: 'Koin', symbol: 'KOIN', decimals: 8 },
    ]).summary;
    expect(summary).toBe(`Transfer 0.00000005 KOIN from ${signer} to ${other}`);
    const shown = decodeOperation(upload(signer), []);
    expect(shown).toMatchObject({
      contract: signer,
      entryPoint: 'upload_contract',
      summary: `Upload 8 bytes of contract code to ${signer}, without an ABI`,
    });
    expect(shown.args).toMatchObject({ bytecode: '(8 bytes)', contract_id: signer });
  });
});
