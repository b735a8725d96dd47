// The offline banner's texts (issue 21). Its time is the market's (Buenos Aires), written by the
// same formatter as the stale quotes' "último HH:MM:SS" (lib/numberFormat.ts), so the banner and
// the quotes agree whatever the browser's clock zone is.
import { formatMarketTime } from '../lib/numberFormat';

export const OFFLINE_TEXTS = {
  /** Since when it is offline (epoch ms), as HH:MM in market time; null: not known. */
  since: (at: number | null) => `Sin conexión desde ${at == null ? '—' : formatMarketTime(at, false)}`,
  pending: (count: number) => (count === 1 ? '1 cambio se enviará al volver la conexión' : `${count} cambios se enviarán al volver la conexión`),
  sending: (count: number) => (count === 1 ? 'Enviando 1 cambio hecho sin conexión…' : `Enviando ${count} cambios hechos sin conexión…`),
  /** The server answers their replay with a failure: they wait, and are tried again by themselves. */
  serverFailing: (count: number, message: string) =>
    `${count === 1 ? '1 cambio espera' : `${count} cambios esperan`}: el servidor falla (${message}). Se reintenta solo; no se pierde ningún cambio.`,
} as const;
