/**
 * Helpers for the curl tour in the README: the two steps curl cannot do, signing with a demo key.
 *
 *   npx tsx examples/cli.ts token <account>                 # sign in; prints an access token
 *   npx tsx examples/cli.ts offer <account> <name> <eth>    # prints the body of a signed WETH offer
 *   npx tsx examples/cli.ts listing <account> <name> <eth>  # prints the body of a signed ETH listing
 *
 * Add `--wrapped` for a name held in the NameWrapper; BASE_URL defaults to http://localhost:3000.
 */
import { parseEther } from 'viem';
import { demoAccount, signedListing, signedOffer, signIn } from './trade.js';

const [command, index = '0', name = '', eth = '0'] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const wrapped = process.argv.includes('--wrapped');
const account = demoAccount(Number(index));
const baseUrl = process.env.BASE_URL ?? 'http://localhost:3000';

switch (command) {
  case 'token':
    console.log(await signIn(baseUrl, account));
    break;
  case 'offer':
    console.log(JSON.stringify({ orderData: await signedOffer(account, name, wrapped, parseEther(eth)) }));
    break;
  case 'listing':
    console.log(JSON.stringify({ orderData: await signedListing(account, name, wrapped, parseEther(eth)) }));
    break;
  default:
    console.error('usage: npx tsx examples/cli.ts token|offer|listing <account> [<name> <eth>] [--wrapped]');
    process.exitCode = 2;
}
