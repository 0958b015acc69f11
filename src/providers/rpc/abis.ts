import { parseAbi } from 'viem';

/**
 * Event ABIs of the contracts the chain sync reads. Signatures checked against the deployed
 * contracts' sources (ensdomains/ens-contracts, grailsmarket/ens-referrals, ProjectOpenSea/seaport).
 *
 * ETH registrar controllers on mainnet, in order of deployment:
 * - legacy `0x283Af0B2…` (2020): NameRegistered(name, label, owner, cost, expires), NameRenewed(name, label, cost, expires)
 * - wrapped `0x25355336…` (2023, registers through the NameWrapper): NameRegistered(name, label, owner,
 *   baseCost, premium, expires), NameRenewed as legacy. No referrer.
 * - unwrapped `0x59E16fcC…` (2025): NameRegistered(label, labelhash, owner, baseCost, premium, expires,
 *   referrer), NameRenewed(label, labelhash, cost, expires, referrer).
 * - UniversalRegistrarRenewalWithReferrer `0xf55575Bd…` (2025): renews through the wrapped controller
 *   (which emits its own NameRenewed first, in the same transaction) and then emits
 *   RenewalReferred(label, labelHash, cost, duration, referrer).
 * The same event name with different parameters has a different topic, so one ABI holds them all.
 */
export const registrarControllerAbi = parseAbi([
  'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 cost, uint256 expires)',
  'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)',
  'event NameRegistered(string label, bytes32 indexed labelhash, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires, bytes32 referrer)',
  'event NameRenewed(string name, bytes32 indexed label, uint256 cost, uint256 expires)',
  'event NameRenewed(string label, bytes32 indexed labelhash, uint256 cost, uint256 expires, bytes32 referrer)',
  'event RenewalReferred(string label, bytes32 indexed labelHash, uint256 cost, uint256 duration, bytes32 referrer)',
]);

/** .eth base registrar (ERC-721, token id = uint256(labelhash)). */
export const baseRegistrarAbi = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
]);

/** NameWrapper (ERC-1155, token id = uint256(namehash)). */
export const nameWrapperAbi = parseAbi([
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
]);

/** Seaport 1.6 (ConsiderationEventsAndErrors). */
export const seaportAbi = parseAbi([
  'struct SpentItem { uint8 itemType; address token; uint256 identifier; uint256 amount; }',
  'struct ReceivedItem { uint8 itemType; address token; uint256 identifier; uint256 amount; address recipient; }',
  'event OrderFulfilled(bytes32 orderHash, address indexed offerer, address indexed zone, address recipient, SpentItem[] offer, ReceivedItem[] consideration)',
  'event OrderCancelled(bytes32 orderHash, address indexed offerer, address indexed zone)',
  'event CounterIncremented(uint256 newCounter, address indexed offerer)',
]);

/** Seaport 1.6 reads: the offerer's counter, which every order signs and `incrementCounter` raises. */
export const seaportReadAbi = parseAbi([
  'function getCounter(address offerer) view returns (uint256 counter)',
]);

/** Chainlink aggregator (the ETH/USD feed answers with 8 decimals). */
export const chainlinkAggregatorAbi = parseAbi([
  'function decimals() view returns (uint8)',
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
]);

/** ENS registry: the resolver of a node (reverse records and forward checks go through it). */
export const ensRegistryAbi = parseAbi([
  'function resolver(bytes32 node) view returns (address)',
]);

/** Public resolver reads: a reverse node's name, a forward node's ETH address. */
export const ensResolverAbi = parseAbi([
  'function name(bytes32 node) view returns (string)',
  'function addr(bytes32 node) view returns (address)',
]);
