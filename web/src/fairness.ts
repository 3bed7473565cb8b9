/**
 * A fair deal: nobody alone chooses the cards (docs/protocol.md, "Entropy"). Before creating a
 * game the lobby asks the server to commit to a secret seed (`POST /commitments`), then sends
 * randomness of this browser's with the commitment; a person taking an open seat of such a game
 * sends some with the join. The server cannot pick the seed after seeing the browser's
 * randomness (it is committed to first), and the browser cannot pick it without knowing the
 * server's seed; the replay page's verifier re-derives the mixed seed at the end.
 */

import { api, type Schemas, type Summary } from "./api/client";

/** The bytes of randomness a browser gives: the most a request accepts is 64, the least 16. */
const ENTROPY_BYTES = 32;

/** Fresh randomness from the browser's cryptographic generator, as lower-case hex. */
export function browserEntropy(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ENTROPY_BYTES));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** What a fair create adds to its body, and the commitment the game must then carry. */
export interface FairDeal {
  readonly commitment_id: string;
  readonly entropy: string;
  readonly seedCommitment: string;
}

/** Asks the server for a commitment and pairs it with fresh randomness; the refusal as is. */
export async function fairDeal(): Promise<{ deal: FairDeal } | { error: unknown }> {
  const { data, error } = await api.POST("/commitments", {});
  if (data === undefined) return { error };
  const answer: Schemas["CommitmentResponse"] = data;
  return { deal: { commitment_id: answer.commitment_id, entropy: browserEntropy(), seedCommitment: answer.seed_commitment } };
}

/** Whether a game created with `deal` holds the seed committed to before the browser's
 * randomness was sent (a server that swapped the seed afterwards is caught here). */
export function keptCommitment(deal: FairDeal, gameSeedCommitment: string): boolean {
  return deal.seedCommitment === gameSeedCommitment;
}

/** What a join adds to its body: this browser's randomness when the game mixes players'
 * (`seed_source` `mixed`); nothing otherwise (the server refuses entropy there). */
export function joinEntropy(game: Summary): { entropy?: string } {
  return game.seed_source === "mixed" ? { entropy: browserEntropy() } : {};
}
