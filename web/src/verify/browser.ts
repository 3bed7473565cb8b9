/**
 * The verifier as the replay page loads it: a bundle of its own (`verify.js`), so that only a
 * replay of a finished game pays for it.
 */

export { asReceipt } from "./receipts";
export { verifyExport } from "./verify";
