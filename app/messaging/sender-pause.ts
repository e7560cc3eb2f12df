// A sending number's marketing pause (decision 065). The pipeline only honours it: the send consumer holds a
// marketing text whose number is paused, with this note. What pauses and resumes a number is a feature built on the
// pipeline (app/deliverability), which finds the texts to release by the same note.

/** The note a marketing text carries while held for its paused sending number. */
export const senderPausedNote = (sender: string) =>
  `Held: carriers filtered texts from ${sender}, so its marketing is paused until a superuser resumes it (Compliance)`;
