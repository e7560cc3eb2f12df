import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { Archive } from "lucide-react";
import { requireUser } from "~/http/guard.server";
import { LocalTime } from "~/components/local-time";
import { EmptyState, PageHeader, Table, TBody, Td, TextLink, THead } from "~/components/ui";
import { listMessageArchives } from "~/message-center/list-message-archives.server";
import { formatCount } from "~/lib/format-count";

export const meta: MetaFunction = () => [{ title: "Message archives — Helio" }];

/** Superusers only: archived messages by month, each month a gzipped NDJSON download (decision 017). */
export async function loader(args: LoaderFunctionArgs) {
  await requireUser(args, { role: "superuser" });
  return listMessageArchives(args.context.db);
}

const n = (x: number) => formatCount(x);
const size = (bytes: number) =>
  bytes < 1_000_000 ? `${Math.max(1, Math.round(bytes / 1000))} KB` : `${(bytes / 1_000_000).toFixed(1)} MB`;

export default function MessageArchives() {
  const { months, retentionMonths } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Message archives"
        description={
          <>
            Messages older than {retentionMonths} months are moved here, one file per month (gzipped NDJSON, one message
            per line). Change the period on <TextLink to="/organisation">Organisation</TextLink>. Back to the{" "}
            <TextLink to="/messages">Message Center</TextLink>.
          </>
        }
      />
      {months.length === 0 ? (
        <EmptyState
          icon={Archive}
          title="Nothing archived yet"
          description={`No message is older than ${retentionMonths} months.`}
        />
      ) : (
        <Table data-testid="archive-months">
          <THead columns={["Month (UTC)", "Messages", "Size", "Last archived", "Download"]} />
          <TBody>
            {months.map((m) => (
              <tr key={m.month}>
                <Td className="font-medium">{m.month}</Td>
                <Td>{n(m.messages)}</Td>
                <Td>{size(m.bytes)}</Td>
                <Td>
                  <LocalTime iso={m.updatedAt} />
                </Td>
                <Td className="space-x-3">
                  {Array.from({ length: m.files }, (_, i) => (
                    <TextLink key={i} href={`/messages/archives/${m.month}${i ? `?file=${i + 1}` : ""}`} download>
                      {m.files > 1 ? `File ${i + 1}` : `${m.month}.ndjson.gz`}
                    </TextLink>
                  ))}
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
