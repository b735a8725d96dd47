/** What the app shows while the first route's loader checks the session (a spinner, no text). */
export function StartingScreen() {
  return (
    <div className="page-loader" role="status" aria-label="Cargando">
      <span className="page-loader__spinner" />
    </div>
  );
}
