import type { Migration } from 'kysely';

/**
 * The phase of a storage change (docs/upgrading.md, Expand, then contract). Instances of this release and of the
 * release before serve side by side during a rolling upgrade, so a change is made in two phases:
 *
 * - `expand`: only adds what the previous release ignores (a table, a nullable column or one with a default,
 *   an index, rows of a table or values of a column the same step adds). Runs at start-up.
 * - `contract`: anything else: rewriting rows into a form the previous release cannot read, dropping,
 *   renaming, retyping, a background backfill into a new form. Runs only when the operator finishes the
 *   upgrade (`tracking upgrade finish`), once no instance of the previous release is left.
 *
 * test/migration-phases.test.ts holds every migration to its phase's rules on both stores.
 */
export type MigrationPhase = 'expand' | 'contract';

export interface PhasedMigration extends Migration {
  phase: MigrationPhase;
}
