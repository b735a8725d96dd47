import { marketIsoDate } from '../lib/marketTime';
import { settings } from '../shared/settings';

export function Footer() {
  return (
    <footer className="footer">
      <span>
        <strong>Visores</strong> {settings.appVersion}
      </span>
      {/* Said once for the whole app: every date and time shown is the market's. */}
      <span data-field="time-zone">Fechas y horas de Buenos Aires (UTC−3)</span>
      <span>© {marketIsoDate(new Date().getTime()).slice(0, 4)} Visores</span>
    </footer>
  );
}
