// A dApp's grant as dapps.json stores it: for the tests that write the file (the store's, and a wallet started on a
// folder that holds one).
import type { StoredGrant } from '../../src-main/wallet/dapps/dappStore.ts';

/** A WalletConnect grant of https://app.example for one account and koinos_signMessage on mainnet. */
export const STORED_GRANT: StoredGrant = {
  origin: 'https://app.example',
  name: 'App',
  url: 'https://app.example/',
  transport: 'walletconnect',
  chains: ['koinos:EiBZK_GGVP0H_fXVAM3j6EAuz3-B-l3e'],
  accounts: ['1GE2JqXw5LMQaU1sj82Dy8ZEe2BRXQS1cs'],
  methods: ['koinos_signMessage'],
  grantedAt: '1700000000000',
  sessions: ['abc'],
};
