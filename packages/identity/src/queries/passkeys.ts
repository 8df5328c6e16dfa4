import type { AnySql } from '@qiraa/db';

/** A passkey as its owner sees it: no public key, no counter. */
export interface Passkey {
  id: string;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export async function passkeysOf(sql: AnySql, userId: number): Promise<Passkey[]> {
  const rows = await sql<
    {
      id: string;
      transports: string[];
      device_type: Passkey['deviceType'];
      backed_up: boolean;
      created_at: Date;
      last_used_at: Date | null;
    }[]
  >`
    select id, transports, device_type, backed_up, created_at, last_used_at
    from auth_webauthn_credentials where user_id = ${userId} order by created_at, id`;
  return rows.map((r) => ({
    id: r.id,
    transports: r.transports,
    deviceType: r.device_type,
    backedUp: r.backed_up,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
  }));
}
