/** Persisted exception state per shipment (the engine's output merged with history). */
export interface TrackingExceptionTable {
  exception_id: string;
  shipment_id: number;
  exception_type: string;
  status: string;
  /** The detection episode of the engine (see exception-engine); manual clears pin one episode. */
  episode: string;
  /** The served Exception object as JSON. */
  body_json: string;
  updated_at: string;
}

/** Operator clears (MANUAL_CLEAR); `episode` pins the detection the clear applies to. */
export interface ExceptionClearTable {
  exception_id: string;
  episode: string;
  note: string;
  cleared_at: string;
}
