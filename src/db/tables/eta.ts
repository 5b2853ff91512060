/** One version of the predicted arrival's model (migration 030; src/store/eta/eta-model.ts). */
export interface EtaModelTable {
  /** 1, 2, 3 …: each training run that learned something writes the next. */
  version: number;
  /** The model's own format number (src/domain/eta/), so a reader can skip a model newer than it knows. */
  format: number;
  trained_at: string;
  /** Voyages the model has learned from, in all. */
  voyages: number;
  /** Lanes (carrier, port of loading, port of discharge) it has seen. */
  lanes: number;
  /** The model's JSON, raw-deflated. */
  model_z: Uint8Array;
  created_at: string;
}

/** The training's lease and cursor: one row, id 1 (migration 030). */
export interface EtaTrainingTable {
  id: number;
  lease_owner: string | null;
  /** A lease until T ends at T. */
  lease_until: string;
  /** The history loader's cursor past the voyages learned from; null: from the start. */
  history_cursor: string | null;
  last_run_at: string | null;
  last_error: string | null;
}
