import { Construction } from "lucide-react";
import { Card, EmptyState, PageHeader } from "~/components/ui";

/** A screen whose issue has not landed yet: says so plainly instead of showing fake data. */
export function PagePlaceholder({ title, summary }: { title: string; summary: string }) {
  return (
    <section className="mx-auto max-w-3xl space-y-6">
      <PageHeader title={title} description={<p className="text-base">{summary}</p>} />
      <Card className="border-dashed border-input p-0">
        <EmptyState icon={Construction} title="This screen is being built. Nothing here is live yet." />
      </Card>
    </section>
  );
}
