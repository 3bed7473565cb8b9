/** What the Node entry points (web/verify/*.mjs) use: the verifier and its self-test over the vectors. */

export { asKeyList, asReceipt, reportLines, verifyExport } from "./index";
export { checkVectors } from "./vectors";
export { checkForgeries } from "./forgeries";
