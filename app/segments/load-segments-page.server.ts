import type { Db } from "~/db/client.server";
import { ownerChoicesFrom, selectOwnerChoices } from "~/contacts/load-owner-picker.server";
import { selectPipelineStages } from "~/contacts/pipeline-stages.server";
import type { ContactViewer } from "~/contacts/contact-scope.server";
import { describeSegment, type SegmentDefinition } from "./segment-definition";
import { getSegment, mayEditSegment, type SegmentEditor } from "./segment-access.server";
import { listSegments } from "./list-segments.server";
import { previewSegment } from "./preview-segment.server";

/** What the segment form offers: the pipeline's stages and the active users (each a handful of rows). */
async function formChoices(db: Db) {
  const [stages, owners] = await Promise.all([selectPipelineStages(db), selectOwnerChoices(db)]);
  return {
    stages: stages.map((s) => ({ key: s.key, label: s.label })),
    owners: ownerChoicesFrom(owners).map((o) => ({ id: o.id, name: o.name })),
  };
}

function describer(choices: Awaited<ReturnType<typeof formChoices>>) {
  const stage = new Map(choices.stages.map((s) => [s.key, s.label]));
  const owner = new Map(choices.owners.map((o) => [o.id, o.name]));
  return (d: SegmentDefinition) =>
    describeSegment(d, { stage: (k) => stage.get(k) ?? k, owner: (id) => owner.get(id) ?? "a former user" });
}

/** The Segments screen: every segment in plain words, and the form's choices. */
export async function loadSegmentsPage(db: Db, me: SegmentEditor) {
  const [segments, choices] = await Promise.all([listSegments(db), formChoices(db)]);
  const describe = describer(choices);
  return {
    segments: segments.map((s) => ({
      id: s.id,
      name: s.name,
      summary: describe(s.definition),
      mayEdit: mayEditSegment(s, me),
    })),
    ...choices,
  };
}

/** One segment's screen: its definition, who is in it now (as this person sees them, a page) and the form's choices. */
export async function loadSegmentPage(
  db: Db,
  id: number,
  me: SegmentEditor & ContactViewer,
  opts: { after?: number | null; now: Date },
) {
  const [segment, choices] = await Promise.all([getSegment(db, id), formChoices(db)]);
  const preview = await previewSegment(db, segment.definition, me, opts);
  return {
    segment: { id: segment.id, name: segment.name, definition: segment.definition },
    summary: describer(choices)(segment.definition),
    mayEdit: mayEditSegment(segment, me),
    scoped: preview.scoped,
    preview,
    ...choices,
  };
}
