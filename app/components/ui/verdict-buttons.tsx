import { ThumbsDown, ThumbsUp } from "lucide-react";
import { Button } from "./button";

export type Verdict = "right" | "wrong";
const VERDICTS = [
  { value: "right", label: "Right", icon: ThumbsUp },
  { value: "wrong", label: "Wrong", icon: ThumbsDown },
] as const;

/**
 * Right / Wrong: marking what the classifier said, the accuracy figure's input (an alert, a classification). Two
 * submit buttons of the form they sit in, posting `name=right|wrong`; the one already chosen is `aria-pressed`.
 */
export function VerdictButtons({ name, verdict }: { name: string; verdict: Verdict | null }) {
  return (
    <>
      {VERDICTS.map((v) => (
        <Button
          key={v.value}
          type="submit"
          name={name}
          value={v.value}
          size="sm"
          variant="outline"
          icon={v.icon}
          aria-pressed={verdict === v.value}
        >
          {v.label}
        </Button>
      ))}
    </>
  );
}
