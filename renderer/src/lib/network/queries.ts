/**
 * Settings → Network's reads and writes: the imported CAs, the trust counts and the proxy in use.
 * One key for all of it (the list is small and every write answers with the new state).
 */
import type { CaImportResult, NetworkSettings } from '$shared/contract';
import { api } from '../api';

/** The query key of {@link networkSettingsQuery}. */
export const networkSettingsKey = ['network-settings'] as const;

/** Settings → Network, read afresh whenever the section is shown. */
export function networkSettingsQuery() {
  return { queryKey: networkSettingsKey, queryFn: () => api().getNetworkSettings(), staleTime: 0 };
}

/** "Import CA certificate…": main's open dialog, then main's confirmation. */
export function importCaMutation() {
  return { mutationFn: (): Promise<CaImportResult> => api().importCaCertificate() };
}

/** Removes an imported CA by its SHA-256 fingerprint. */
export function removeCaMutation() {
  return {
    mutationFn: (fingerprint256: string): Promise<NetworkSettings> => api().removeCaCertificate(fingerprint256),
  };
}
