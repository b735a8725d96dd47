// Before the first paint: the appearance kept in local storage (darkMode, colorTheme,
// sidebarStyle, headerStyle; see src/features/appearance/appearance.ts), so no flash.
// A file, not an inline script, so the CSP can say script-src 'self'. Loaded by index.html
// as a classic blocking script in <head>.
/* global document, window */
(function () {
  var h = document.documentElement;
  function get(k, ok, d) {
    try {
      var v = localStorage.getItem(k);
      return ok.indexOf(v) >= 0 ? v : d;
    } catch {
      return d;
    }
  }
  var mode = get('darkMode', ['light', 'dark', 'system'], 'dark');
  var dark = mode === 'dark' || (mode === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  h.setAttribute('data-theme', dark ? 'dark' : 'light');
  h.setAttribute('data-color-mode', mode);
  h.setAttribute('data-color-theme', get('colorTheme', ['default', 'amethyst', 'city', 'flat', 'modern', 'smooth'], 'default'));
  h.setAttribute('data-sidebar-style', dark ? 'dark' : get('sidebarStyle', ['light', 'dark'], 'dark'));
  h.setAttribute('data-header-style', get('headerStyle', ['light', 'dark'], 'light'));
})();
