/** A screen whose issue has not landed yet: says so plainly instead of showing fake data. */
export function PagePlaceholder({ title, summary }: { title: string; summary: string }) {
  return (
    <section className="mx-auto max-w-3xl">
      <h2 className="text-2xl font-bold" data-testid="page-title">
        {title}
      </h2>
      <p className="mt-2 text-slate-600">{summary}</p>
      <p className="mt-6 rounded-md border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-500">
        This screen is being built. Nothing here is live yet.
      </p>
    </section>
  );
}
