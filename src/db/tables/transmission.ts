import type { Generated } from 'kysely';

/**
 * Each process reserves a block of transmission IDs by inserting a row here;
 * the auto-increment id makes blocks unique across processes and restarts.
 */
export interface TransmissionBlockTable {
  id: Generated<number>;
  reserved_at: string;
}
