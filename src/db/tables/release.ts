/** instance_heartbeat (migration 024): the running instances and their releases (docs/upgrading.md). */
export interface InstanceHeartbeatTable {
  id: string;
  version: string;
  started_at: string;
  last_seen_at: string;
}
