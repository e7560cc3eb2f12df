type HiddenValue = string | number | null | undefined;

/**
 * The fixed values a form posts (its intent, the ids it acts on, what an earlier step chose), as hidden inputs. An
 * array posts its name once per item; null and undefined are left out.
 */
export function HiddenFields({ fields }: { fields: Record<string, HiddenValue | readonly HiddenValue[]> }) {
  return (
    <>
      {Object.entries(fields).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).flatMap((v, i) =>
          v == null ? [] : [<input key={`${name}-${i}`} type="hidden" name={name} value={v} />],
        ),
      )}
    </>
  );
}
