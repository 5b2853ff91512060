import type { ContainerMaster, ShipmentMaster, TrackingException } from '../../domain/types.js';

/**
 * JSON documents stored in text columns. Parsing lives in one place so a
 * change of stored shape has one place to migrate.
 */

export const parseShipmentMaster = (json: string): ShipmentMaster => JSON.parse(json) as ShipmentMaster;
export const parseContainerMaster = (json: string): ContainerMaster => JSON.parse(json) as ContainerMaster;
export const parseException = (json: string): TrackingException => JSON.parse(json) as TrackingException;
