/** An alert's owner-first routing as the alerts list shows it (decision 050); null for an unowned alert. */
export function ownerRoutingNote(a: {
  ownerFirstName: string | null;
  ownerLastName: string | null;
  deferredTo: string[] | null;
  deferredDueAt: number | null;
  deferredOutcome: "sent" | "answered" | null;
}): string | null {
  const owner = [a.ownerFirstName, a.ownerLastName].filter(Boolean).join(" ").trim();
  if (!owner) return null;
  const others = a.deferredTo?.length ? a.deferredTo.join(", ") : null;
  if (!others) return `Sent to the owner, ${owner}`;
  if (a.deferredOutcome === "answered") return `Sent to the owner, ${owner}; answered before ${others} needed it`;
  if (a.deferredOutcome === "sent") return `Sent to the owner, ${owner}; not answered in time, then to ${others}`;
  const due = a.deferredDueAt ? new Date(a.deferredDueAt).toISOString().slice(11, 16) : "soon";
  return `Sent to the owner, ${owner}; goes to ${others} at ${due} UTC unless someone answers first`;
}
