/** One organisation setting's value from the settings rows read once (trimmed; "" when it is not set). */
export function settingValue(rows: readonly { key: string; value: string }[], key: string): string {
  return rows.find((r) => r.key === key)?.value.trim() ?? "";
}
