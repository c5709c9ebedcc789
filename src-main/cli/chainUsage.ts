// Help text of the CLI's network commands, apart from the commands themselves so that `--help` and the key and tx
// commands load no node client.

/** Where `--network local` points: the devnet's default address (devnet/server/startDevnet.ts DEFAULT_PORT), not imported
 * from there so that the CLI does not load the devnet to print help. */
export const LOCAL_DEVNET_URL = 'http://127.0.0.1:8080';

export const NETWORK_USAGE = `  --network local|testnet|mainnet|URL   the node to use (default local: a devnet at ${LOCAL_DEVNET_URL});
                                        URL is a JSON-RPC address such as https://api.koinos.io
  --api-key-file FILE                   an API key for the node, read from FILE (never from an argument)`;

/** The option of the commands that send (transfer, tx submit, contract upload and call). */
export const DATA_DIR_USAGE = `  --data-dir DIR                        a wallet's data folder (transfer, tx submit, contract upload|call): the
                                        pending transactions recorded there count for the nonce and the mana, what
                                        the command sends is recorded there and its approval logged in approvals.log,
                                        and a recipient that looks like one of its accounts, contacts or recipients
                                        is a risk (lookalike-recipient); refused while the wallet (or another command)
                                        uses the folder`;

export const CHAIN_USAGE = `Accounts on a network:
  koinos-wallet balance ADDRESS [--token koin|vhp|CONTRACT] [network options]
      Prints {"address", "network", "token", "balance", "base_units"} (plus "mana" for KOIN): the balance in the
      token's decimals and in base units.

  koinos-wallet allowances ADDRESS [--token CONTRACT]... [--collection CONTRACT]... [network options]
      Prints {"address", "network", "allowances", "read", "unread", "cut"}: what the account let others take or
      move without its signature, as the chain has it now. On KOIN, VHP and each --token: the allowances above 0
      ({"kind": "token", "contract", "symbol", "spender", "amount", "base_units", "unlimited"}); on each
      --collection (KCS-5): the operators of every NFT ({"kind": "nft-operator", "contract", "name", "symbol",
      "operator"}) and the NFTs the account owns approved to another ({"kind": "nft-token", ..., "token_id",
      "operator"}). "unread" names a contract that could not be read, with the node's reason; "cut" one that listed
      more than the 100 read. To take one back: contract call with approve and a value of 0, set_approval_for_all
      with approved false, or approve of the NFT to the owner itself.

  koinos-wallet history ADDRESS [--limit N] [--before SEQ] [network options]
      Prints {"records", "next"}: the account's newest N records (default 20) decoded (sent, received, minted,
      burned, calls, events), older than SEQ when given; "next" is the --before of the next page.

  koinos-wallet history ADDRESS --format csv|json [--from DATE] [--to DATE] [network options]
      Prints the account's history as a file, oldest first: one row per movement or call with time, block,
      transaction_id, kind, token, amount (in the token's decimals), counterparty, memo, note (the app's notes:
      empty here), mana_used and status. CSV follows RFC 4180 (CRLF line ends). DATE is 2026-01-31 (UTC; a --to
      date includes that day) or an ISO time.

  koinos-wallet transfer --from ADDRESS --to ADDRESS --amount 1.5 [--token koin|vhp|CONTRACT] [--rc-limit N]
                         [--memo TEXT] [--payer ADDRESS [--payer-key-file FILE]]
                         (--wif-file FILE | --unsigned) [--allow-risk NAME]... [network options]
      With --wif-file: checks the transfer, sizes rc_limit with a dry run (or takes --rc-limit, base units of
      mana), signs, submits, waits until it is in a block and prints {"receipt", "status", "block_height"}.
      A token contract this network is not known to hold (KOIN, VHP) is refused before anything is signed unless
      --allow-risk unknown-contract (see "tx sign" for every risk name). --memo: public text the chain keeps
      with the transfer (KCS-4's memo), one line of at most 256 characters.
      With --unsigned: prints the unsigned transaction's base64 (chain ID, nonce and rc_limit fixed) for
      "tx sign" on an offline machine, then "tx submit" back online.
      --payer: another account pays the mana (the sender is the payee: its nonce, its signature; rc_limit from
      the payer's mana). A contract payer such as the free mana sharer approves by itself: the transfer is sent.
      An account payer signs too: with --payer-key-file both keys sign and it is sent; without, the sender's
      signature is added and the base64 printed for the payer's "tx sign" (in either order), then "tx submit".

  koinos-wallet tx submit [INPUT] [--dry-run] [network options]
      Submits a signed transaction (base64 or JSON, as "tx sign" prints it) and prints the node's receipt;
      --dry-run only runs it on the node (broadcast false). Refused when it was signed for another chain ID.

  Network options:
${NETWORK_USAGE}
${DATA_DIR_USAGE}`;
