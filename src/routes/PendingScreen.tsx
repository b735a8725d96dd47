/** A screen of the route table whose feature has not landed yet; it says so plainly. */
export function PendingScreen({ title }: { title: string }) {
  return (
    <section className="page">
      <h1>{title}</h1>
      <div className="card">
        <p>Esta pantalla todavía no está disponible.</p>
      </div>
    </section>
  );
}
