import { settings } from '../shared/settings';

export function Footer() {
  return (
    <footer className="footer">
      <span>
        <strong>Visores</strong> {settings.appVersion}
      </span>
      <span>© {new Date().getFullYear()} Visores</span>
    </footer>
  );
}
